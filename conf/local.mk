# conf/local.mk: experiment files (installed as examples).
rbconfdir = $(pkgdatadir)
dist_rbconf_DATA = conf/default.ini conf/cpu-threads-256M.ini conf/hopper-vs-cub.ini conf/hopper-tune.ini \
	conf/vulkan-vs-cuda.ini conf/ranks-cpu.ini conf/nccl-gpus.ini conf/energy.ini \
	conf/p2p-gpus.ini conf/half.ini conf/repro.ini conf/shaped.ini conf/shaped-cpu.ini
rbseedsdir = $(pkgdatadir)/seeds
dist_rbseeds_DATA = conf/seeds/000-reduce-progression.ini \
	conf/seeds/001-optimization-levels.ini conf/seeds/002-versions-and-histograms.ini \
	conf/seeds/003-atomic-scenarios.ini conf/seeds/000-reduce-progression-vulkan.ini
