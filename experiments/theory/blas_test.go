package theory

// With the build tag openblas the tests run on OpenBLAS, as the runner does.
import _ "dpgibo/internal/blasinfo"
