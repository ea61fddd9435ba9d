module example.com/extendmodule

go 1.26.8

require dpgibo v0.0.0

replace dpgibo => ../..
