package gendisc

// For the tests of package gendisc_test (kinds_test.go), which import the
// model families through package models, as the tests of this package
// cannot.

// FamilyPackages returns the packages that layers places in the layer of
// the model families, as paths inside the module.
func FamilyPackages() []string {
	var pkgs []string
	for pkg, l := range layers {
		if l == layerFamily {
			pkgs = append(pkgs, pkg)
		}
	}
	return pkgs
}

// Module is the import path of the module.
const Module = module
