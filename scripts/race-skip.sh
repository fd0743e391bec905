# Sourced by test.sh (and scripts/suite-cpu.sh): the tests the race
# detector does not run. Under -race code runs 5 to 10 times slower, and
# the detector finds races only where goroutines share memory, in the code
# a test reaches, whatever the size of its data. The tests below are the
# heaviest of their packages and repeat, on more cases or bigger maps,
# code paths that lighter tests take under -race too; they all still run
# in test.sh's plain step. For route, terrain and erosion the statements
# of the package's own files that the -short tests reach were compared
# with and without these skipped (go test -coverprofile): see
# docs/development.md for what each list leaves out. A test renamed here
# or there just runs again under -race.
race_skip_names=(
	# route: real and synthetic tracks through the same solve as
	# TestGenerateRouteDeterministic, TestLeastCurvatureSameOnAnyCores and
	# the cancellation tests; roads through TestRoadKeepsTheRelief.
	TestRouteAccuracyRealTracks TestFlatCityRunRelief TestRoadOverSwitchbacksHasNoStep
	TestNoisyTrackComesOutRight TestGenerateRouteSyntheticTracks TestRandomWalkMissIsReported
	TestWideRoadOverGPSJitter TestFollowLeavesNoCrease TestFollowPrefersTheWiderKernel
	TestRouteTerrainFarFromRouteIsUnconstrained TestLappedTrackFollowed
	# terrain/erosion: physical properties over many maps; the stages'
	# parallel code runs in TestDeterministicAcrossCores, TestCancel and
	# the …MatchesReference tests.
	TestSameShapeAtAnyCellSize TestFluvialSteepnessOnEveryAxis TestFluvialSlopeArea
	TestThermalConservesMassAndConverges TestTalusAngleOnEveryAxis
	# terrain/heightfile: GDAL, OpenEXR and the decoders, none of them
	# concurrent (the package's goroutines are the PNG writer's, which the
	# TestParallelPNG… tests run); most of their time is the tools'.
	TestEXRCompressionsByOpenEXR TestEXRPIZCorruption TestPointRegisteredDEMRoundTripThroughGDAL
	TestGeoTIFFFeet TestTIFFNoDataRoundTripThroughGDAL TestDecodeGDALDEMs
	TestTIFFTilesLargerThanTheImage TestGeoTIFFVerticalFeet TestEXRRefusedCompressions
	# terrain: the fast paths against the point-by-point references for
	# every basis and kernel; TestDeterministicAndSeedDependent, the
	# cancellation and progress tests and the rest run the same row-parallel
	# generators under -race.
	TestFastPathMatchesReferenceWithEveryKernel TestSwissRowsMatchReference
	TestCellularFastPathMatchesReference TestFastPathMatchesReference
	TestOutsideHasNoCracks TestFusedRowsMatchReference
)
race_skip="^($(IFS='|'; echo "${race_skip_names[*]}"))\$"
