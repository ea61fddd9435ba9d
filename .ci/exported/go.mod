module dpgibo.ci/exported

go 1.26.8
