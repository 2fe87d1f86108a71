# Sourced (`. Scripts/stable-environment.sh`) by every script that runs SwiftPM on the root
# package or the Examples package, after its `cd`, and by .ci/run.
#
# SwiftPM keeps the whole environment beside each build plugin it compiles, and a build in an
# environment unlike the last one's can rebuild every module of the package (measured here: 656
# compile jobs, about 4 minutes on 2 cores, when only SHLVL differed). Each bash script raises
# SHLVL, and each `cd` sets OLDPWD: pin both, so the build .ci/run starts and the builds its
# scripts start see one environment.
export SHLVL=1
export OLDPWD=/
