# libtileops: Lua specs -> tileops-gen -> generated/ -> libtileops.a
#
#   make                 build tileops-gen, regenerate generated/ if a spec changed,
#                        build libtileops.a, tileops-bench, the examples and the tests
#   make test            build and run every test suite (GPU cases skip without a GPU),
#                        then a short seeded run of the spec fuzzer
#   make bench           run tileops-bench on the default shapes (needs a GPU)
#   make regen           regenerate generated/ now
#   make tune            time this GPU's tuning space, write specs/tuned/<gpu>.lua
#                        (OPS="gemm softmax" for some operators, BUDGET=seconds to stop early,
#                        COMPARE=specs/tuned/<gpu>.lua to check a repeat against that table)
#   make sanitize        build the host code with ASan + UBSan in build-sanitize/, run the suites
#   make fuzz            run both fuzzers long; SEED=1, JOBS=nproc
#   make fuzz-spec N=…   the spec fuzzer: N mutants (default 10000)
#   make fuzz-api N=…    the API fuzzer in dry run on fake devices: N calls (default 10000000)
#   make install         install tileops.h, libtileops.a and tileops.pc under DESTDIR/PREFIX
#   make uninstall       remove what make install installed (same DESTDIR and PREFIX)
#   make clean           remove build/ and build-sanitize/
#   make help            print this
#
#   V=1                        show full commands
#   TILEOPS_ARCHS="80 90"      build only these tiers (default: every tier the toolkit can build)
#   WERROR=1                   treat warnings as errors (CI does)
#   CUDA_HOME=/path            the CUDA toolkit (default: the nvcc on PATH, else /usr/local/cuda)
#   NCCL_HOME=/path            NCCL for examples/tensor_parallel (default: found in CUDA_HOME,
#                              /usr/local or pkg-config; the example is skipped without it)

.DEFAULT_GOAL := all
.SUFFIXES:
.DELETE_ON_ERROR:

B       := build
# the generated tree the library is built from (make tune builds its own under build/tune)
G       := generated
# the kernels' objects (nvcc): the sanitizer build reuses the normal build's (KB=build)
KB      := $(B)
PREFIX  ?= /usr/local
DESTDIR ?=

ifeq ($(V),1)
  Q :=
  msg :=
else
  Q := @
  msg = @printf '  %-7s %s\n' '$(1)' '$(2)';
endif

# ---- toolchain ----------------------------------------------------------------------------
NVCC_ON_PATH := $(shell p=$$(command -v nvcc 2>/dev/null) && readlink -f "$$p")
CUDA_HOME ?= $(if $(NVCC_ON_PATH),$(patsubst %/bin/nvcc,%,$(NVCC_ON_PATH)),/usr/local/cuda)
NVCC      := $(CUDA_HOME)/bin/nvcc
ifeq ($(wildcard $(NVCC)),)
  $(error no CUDA toolkit: $(NVCC) does not exist; set CUDA_HOME or put nvcc on PATH)
endif
CUDA_LIBDIR := $(firstword $(wildcard $(CUDA_HOME)/lib64 $(CUDA_HOME)/lib))

comma  := ,
CC     ?= cc
CSTD   := -std=c11 -D_GNU_SOURCE
WARN   := -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror)
CFLAGS ?= -O2 -g
ALL_CFLAGS := $(CSTD) $(WARN) $(CFLAGS) -MMD -MP -Iinclude -Ilibops -I$(G) -I$(CUDA_HOME)/include
NVFLAGS := -O3 -std=c++17 -Xcompiler -Wall,-Wextra$(if $(filter 1,$(WERROR)),$(comma)-Werror) \
           $(if $(filter 1,$(WERROR)),-Werror all-warnings) -MMD -MP \
           -Iinclude -Ilibops -Ilibops/device -Igenerator/templates

# Lua and Check come from pkg-config; evaluated once, when first used (after the dependency
# check has run). Both are linked statically so the binaries run where they are not installed.
LUA_CFLAGS   = $(eval LUA_CFLAGS := $(shell pkg-config --cflags lua5.4))$(LUA_CFLAGS)
LUA_LIBS     = $(eval LUA_LIBS := $(shell pkg-config --libs-only-L lua5.4) \
               -Wl,-Bstatic $(shell pkg-config --libs-only-l lua5.4) -Wl,-Bdynamic -lm -ldl)$(LUA_LIBS)
CHECK_CFLAGS = $(eval CHECK_CFLAGS := $(shell pkg-config --cflags check))$(CHECK_CFLAGS)
CHECK_LIBS   = $(eval CHECK_LIBS := $(shell pkg-config --libs-only-L check) \
               -Wl,-Bstatic -lcheck -lsubunit -Wl,-Bdynamic -lm -lrt -lpthread)$(CHECK_LIBS)
CUDA_LIBS    := -L$(CUDA_LIBDIR) -lcudart_static -lstdc++ -ldl -lpthread -lrt -lm
CUBLAS_LIBS  := -L$(CUDA_LIBDIR) -lcublasLt -lcublas

# ---- tiers --------------------------------------------------------------------------------
# Each tier compiles for its own instruction set with its PTX embedded, so the driver can run
# the sm70 and sm80 tiers on newer GPUs. CUDA 13 has no sm_70: the sm70 tier becomes sm_75.
NVCC_CODES   := $(shell $(NVCC) --list-gpu-code 2>/dev/null)
TIER_SASS_70 := $(if $(filter sm_70,$(NVCC_CODES)),70,$(if $(filter sm_75,$(NVCC_CODES)),75))
TIER_SASS_80 := $(if $(filter sm_80,$(NVCC_CODES)),80)
TIER_SASS_90 := $(if $(filter sm_90,$(NVCC_CODES)),90)
BUILDABLE    := $(foreach t,70 80 90,$(if $(TIER_SASS_$(t)),$(t)))
TILEOPS_ARCHS ?= $(BUILDABLE)
$(foreach t,$(TILEOPS_ARCHS),$(if $(filter $(t),$(BUILDABLE)),,\
  $(error TILEOPS_ARCHS: tier $(t) cannot be built by $(NVCC) (it builds: $(BUILDABLE)))))
GENCODE_70 = -gencode 'arch=compute_$(TIER_SASS_70),code=[sm_$(TIER_SASS_70),compute_$(TIER_SASS_70)]'
GENCODE_80 = -gencode 'arch=compute_80,code=[sm_80,compute_80]'
GENCODE_90 = -gencode 'arch=compute_90a,code=[sm_90a,compute_90a]'
TIER_DEFS  := $(foreach t,$(TILEOPS_ARCHS),-DTILEOPS_SM$(t)_SASS=$(TIER_SASS_$(t)))

# ---- dependencies -------------------------------------------------------------------------
DEPS_PKGS := pkg-config liblua5.4-dev check
$(B)/deps.ok:
	@mkdir -p $(B)
	@if ! pkg-config --exists lua5.4 check 2>/dev/null; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "  DEPS    apt-get install $(DEPS_PKGS)"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	     apt-get install -y -qq $(DEPS_PKGS)) >$(B)/deps.log 2>&1 \
	      || { cat $(B)/deps.log; echo "installing $(DEPS_PKGS) failed"; exit 1; }; \
	  else \
	    echo "libtileops needs Lua 5.4 and Check (found with pkg-config). Install them:"; \
	    echo "  sudo apt-get install $(DEPS_PKGS)"; \
	    exit 1; \
	  fi; \
	fi
	@touch $@

# ---- the generator ------------------------------------------------------------------------
GEN      := $(B)/tileops-gen
GEN_LIB  := $(addprefix $(B)/obj/generator/,spec.o emit.o gen.o tuned.o) $(B)/obj/libops/tune_key.o
GEN_OBJS := $(GEN_LIB) $(B)/obj/generator/main.o
SPECS    := $(sort $(wildcard specs/*.lua))
# the committed tuning tables (tileops-tune writes them): their winners join the library
TUNED    := $(sort $(wildcard specs/tuned/*.lua))
GEN_ARGS := $(addprefix --tuned ,$(TUNED)) $(SPECS)

$(B)/obj/generator/%.o: generator/%.c | $(B)/deps.ok
	@mkdir -p $(@D)
	$(call msg,CC,$<)$(CC) $(ALL_CFLAGS) $(LUA_CFLAGS) -c $< -o $@

$(GEN): $(GEN_OBJS)
	$(call msg,LINK,$@)$(CC) $(CFLAGS) $^ $(LUA_LIBS) -o $@

# generated/ is rebuilt when a spec or the generator changes (an instance includes its template,
# so a template edit rebuilds only the objects whose nvcc dependency files name it). The stamp
# is a makefile that includes the generated source lists, so make re-reads them after a regen.
$(B)/regen.mk: $(SPECS) $(TUNED) $(GEN)
	$(call msg,GEN,generated/)$(GEN) -o generated $(GEN_ARGS)
	@echo 'include generated/sources.mk' > $@

# REGEN=0 (the sanitizer build) reads the source lists as they are: the normal build has
# regenerated them already, and two generators must not write generated/ at once.
ifeq ($(filter clean help uninstall,$(MAKECMDGOALS)),)
ifeq ($(REGEN),0)
include $(G)/sources.mk
else
include $(B)/regen.mk
endif
endif

.PHONY: regen
regen: $(GEN)
	$(call msg,GEN,generated/)$(GEN) -o generated $(GEN_ARGS)
	@echo 'include generated/sources.mk' > $(B)/regen.mk

# ---- the library --------------------------------------------------------------------------
RUNTIME := status check handle tier dispatch cost_model tensor_map vector_add softmax gemm attention kvcache \
           tuned tune_key
RT_OBJS := $(patsubst %,$(B)/obj/libops/%.o,$(RUNTIME)) $(B)/obj/libops/tiers.o \
           $(B)/obj/generated/tuned.o

$(B)/obj/libops/%.o: libops/%.c
	@mkdir -p $(@D)
	$(call msg,CC,$<)$(CC) $(ALL_CFLAGS) -c $< -o $@

# the tuning tables, as data
$(B)/obj/generated/tuned.o: $(G)/tuned.c
	@mkdir -p $(@D)
	$(call msg,CC,$<)$(CC) $(ALL_CFLAGS) -c $< -o $@

# tiers.c records which tiers this build holds; rebuild it when TILEOPS_ARCHS changes.
$(B)/archs.stamp: FORCE
	@mkdir -p $(B)
	@echo '$(TIER_DEFS)' | cmp -s - $@ || echo '$(TIER_DEFS)' > $@
$(B)/obj/libops/tiers.o: libops/tiers.c $(B)/archs.stamp
	@mkdir -p $(@D)
	$(call msg,CC,$< [$(TILEOPS_ARCHS)])$(CC) $(ALL_CFLAGS) $(TIER_DEFS) -c $< -o $@

# Each tier's generated sources, compiled for that tier only.
define TIER_RULES
TIER_OBJS_$(1) := $$(patsubst %.cu,$(KB)/obj/generated/%.o,$$(filter %.cu,$$(TILEOPS_GEN_sm$(1)))) \
                  $(B)/obj/generated/sm$(1)/registry.o
$(KB)/obj/generated/sm$(1)/%.o: $(G)/sm$(1)/%.cu
	@mkdir -p $$(@D)
	$$(call msg,NVCC,$$< [sm$(1)])$$(NVCC) $$(NVFLAGS) $$(GENCODE_$(1)) -c $$< -o $$@
$(B)/obj/generated/sm$(1)/registry.o: $(G)/sm$(1)/registry.c
	@mkdir -p $$(@D)
	$$(call msg,CC,$$<)$$(CC) $$(ALL_CFLAGS) -c $$< -o $$@
endef
$(foreach t,$(TILEOPS_ARCHS),$(eval $(call TIER_RULES,$(t))))
KERNEL_OBJS := $(foreach t,$(TILEOPS_ARCHS),$(TIER_OBJS_$(t)))

LIB := $(B)/libtileops.a
$(LIB): $(RT_OBJS) $(KERNEL_OBJS) $(B)/archs.stamp
	$(call msg,AR,$@)rm -f $@ && ar rcs $@ $(RT_OBJS) $(KERNEL_OBJS)

# ---- bench, examples ----------------------------------------------------------------------
# The bench shares the tests' host helpers (RNG, dtype decoding, fp64 references):
# tests/util_host.c and tests/util_ref.c.
BENCH := $(B)/tileops-bench
BENCH_OBJS := $(patsubst bench/%.c,$(B)/obj/bench/%.o,$(filter-out bench/tune.c,$(wildcard bench/*.c))) \
              $(patsubst bench/%.cu,$(B)/obj/bench/%.o,$(wildcard bench/*.cu))
$(B)/obj/bench/%.o: bench/%.c
	@mkdir -p $(@D)
	$(call msg,CC,$<)$(CC) $(ALL_CFLAGS) -c $< -o $@
# the bench's own reference kernels: PTX for sm80 and up, machine code for the newest tier
$(B)/obj/bench/%.o: bench/%.cu
	@mkdir -p $(@D)
	$(call msg,NVCC,$<)$(NVCC) $(NVFLAGS) -gencode arch=compute_80,code=compute_80 -c $< -o $@
# The wgmma probe is sm_90a machine code (no PTX: nothing else could run it), built with the sm90
# tier; without that tier the file compiles to a stub that reports the probe not built.
WGMMA_PROBE := $(if $(filter 90,$(TILEOPS_ARCHS)),\
  -gencode arch=compute_90a$(comma)code=sm_90a -DCEILING_WGMMA_SM90A,\
  -gencode arch=compute_80$(comma)code=compute_80)
$(B)/obj/bench/ceiling_wgmma.o: bench/ceiling_wgmma.cu $(B)/archs.stamp
	@mkdir -p $(@D)
	$(call msg,NVCC,$< [$(if $(filter 90,$(TILEOPS_ARCHS)),sm_90a,stub)])$(NVCC) $(NVFLAGS) \
	  $(WGMMA_PROBE) -c $< -o $@
$(BENCH): $(BENCH_OBJS) $(B)/obj/tests/util_host.o $(B)/obj/tests/util_ref.o $(LIB)
	$(call msg,LINK,$@)$(CC) $(CFLAGS) $^ $(CUBLAS_LIBS) $(CUDA_LIBS) -o $@
# the autotuner (make tune runs it): drives tileops-bench in child processes
TUNE := $(B)/tileops-tune
$(TUNE): $(B)/obj/bench/tune.o $(B)/obj/libops/tune_key.o
	$(call msg,LINK,$@)$(CC) $(CFLAGS) $^ -o $@

EXAMPLES := $(patsubst examples/%.c,$(B)/examples/%,\
              $(filter-out examples/tensor_parallel.c,$(wildcard examples/*.c)))
$(B)/examples/%: examples/%.c $(LIB)
	@mkdir -p $(@D)
	$(call msg,LINK,$@)$(CC) $(ALL_CFLAGS) $< $(LIB) $(CUDA_LIBS) -o $@

# examples/tensor_parallel.c needs NCCL: NCCL_HOME (a folder with include/nccl.h and
# lib/libnccl.so), else the CUDA toolkit's copy or /usr/local's, else pkg-config's nccl.
# Without one it is not built (nothing else depends on NCCL).
NCCL_HOME ?= $(firstword $(foreach d,$(CUDA_HOME) /usr/local,\
               $(if $(wildcard $(d)/include/nccl.h),$(if $(wildcard $(d)/lib*/libnccl.so),$(d)))))
ifneq ($(NCCL_HOME),)
NCCL_LIBDIR := $(patsubst %/,%,$(dir $(firstword $(wildcard $(NCCL_HOME)/lib*/libnccl.so))))
NCCL_CFLAGS := -I$(NCCL_HOME)/include
NCCL_LIBS   := -L$(NCCL_LIBDIR) -Wl,-rpath,$(NCCL_LIBDIR) -lnccl
else ifeq ($(shell pkg-config --exists nccl 2>/dev/null && echo yes),yes)
NCCL_CFLAGS := $(shell pkg-config --cflags nccl)
NCCL_LIBS   := $(shell pkg-config --libs nccl)
endif
ifneq ($(NCCL_LIBS),)
EXAMPLES += $(B)/examples/tensor_parallel
$(B)/examples/tensor_parallel: examples/tensor_parallel.c $(LIB)
	@mkdir -p $(@D)
	$(call msg,LINK,$@)$(CC) $(ALL_CFLAGS) $(NCCL_CFLAGS) $< $(LIB) $(NCCL_LIBS) $(CUDA_LIBS) -o $@
else
$(info note: examples/tensor_parallel is not built: no NCCL found. Install it (Debian: \
  libnccl-dev; or the CUDA repository's libnccl-dev) or set NCCL_HOME to a folder with \
  include/nccl.h and lib/libnccl.so)
endif

# ---- tests --------------------------------------------------------------------------------
# tests/test_<suite>.c, each a Check binary; tests/util_*.c are shared helpers. The generator
# suite links the generator's objects, the others the library.
TEST_NAMES := $(patsubst tests/test_%.c,%,$(wildcard tests/test_*.c))
TESTS      := $(patsubst %,$(B)/tests/test_%,$(TEST_NAMES))
TEST_UTIL  := $(patsubst tests/%.c,$(B)/obj/tests/%.o,$(wildcard tests/util_*.c))
# reached only through the pattern rule below, so make would delete them as intermediates
.SECONDARY: $(patsubst %,$(B)/obj/tests/test_%.o,$(TEST_NAMES))
$(B)/obj/tests/%.o: tests/%.c | $(B)/deps.ok
	@mkdir -p $(@D)
	$(call msg,CC,$<)$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -c $< -o $@
$(B)/tests/test_gen $(B)/tests/test_tuned: $(B)/tests/test_%: $(B)/obj/tests/test_%.o $(GEN_LIB) \
                                         $(TEST_UTIL) $(LIB) | $(GEN)
	@mkdir -p $(@D)
	$(call msg,LINK,$@)$(CC) $(CFLAGS) $^ $(CHECK_LIBS) $(LUA_LIBS) $(CUDA_LIBS) -o $@
$(B)/tests/test_%: $(B)/obj/tests/test_%.o $(TEST_UTIL) $(LIB)
	@mkdir -p $(@D)
	$(call msg,LINK,$@)$(CC) $(CFLAGS) $^ $(CHECK_LIBS) $(CUDA_LIBS) -o $@
# the tuner's suite runs tileops-tune and tileops-bench
$(B)/tests/test_tune: | $(TUNE) $(BENCH)
# the GEMM suite compares with cuBLAS (a shared library: the GPU machine has it)
$(B)/tests/test_gemm: $(B)/obj/tests/test_gemm.o $(TEST_UTIL) $(LIB)
	@mkdir -p $(@D)
	$(call msg,LINK,$@)$(CC) $(CFLAGS) $^ $(CHECK_LIBS) $(CUBLAS_LIBS) $(CUDA_LIBS) -o $@

# The spec fuzzer: mutates the committed specs and runs the generator's objects on each
# mutant in a child process (tests/fuzz_gen.c). A short seeded run is part of make test.
FUZZ_GEN := $(B)/tests/fuzz_gen
FUZZ_TEST_N ?= 300
SEED ?= 1
JOBS ?= $(shell nproc)
$(FUZZ_GEN): $(B)/obj/tests/fuzz_gen.o $(GEN_LIB)
	@mkdir -p $(@D)
	$(call msg,LINK,$@)$(CC) $(CFLAGS) $^ $(LUA_LIBS) -o $@

.PHONY: all test bench install uninstall clean help sanitize fuzz fuzz-spec fuzz-api FORCE
all: $(GEN) $(LIB) $(BENCH) $(TUNE) $(EXAMPLES) $(TESTS) $(FUZZ_GEN)

# Runs every suite from the top folder (the spec tests name files relative to it) and fails
# if any failed.
test: all
	@fail=0; for t in $(TESTS); do echo "== $$t"; $$t || fail=1; done; \
	 echo "== $(FUZZ_GEN) --seed 1 --count $(FUZZ_TEST_N)"; \
	 $(FUZZ_GEN) --seed 1 --count $(FUZZ_TEST_N) --jobs 2 || fail=1; \
	 if [ $$fail = 0 ]; then echo "all test suites passed"; else echo "some tests FAILED"; exit 1; fi

# ---- tuning --------------------------------------------------------------------------------
# make tune: builds the tuning space of this GPU's tier (TUNE_SPACE: near, the defaults and
# every configuration one tuning axis away from one; or all, the whole pruned space) into
# build/tune/, then tileops-tune times it on the shapes the specs list (tune_shapes) and writes
# specs/tuned/<gpu>.lua; the next make builds the winners into the library.
TUNE_B     := $(B)/tune
TUNE_SPACE ?= near
TUNE_TIER  ?= $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | \
                head -1 | awk -F. '{ t = $$1 * 10 + $$2; print (t >= 90 && t < 100) ? 90 : \
                (t >= 80) ? 80 : 70 }')
OPS        ?= gemm softmax flash_attention vector_add
BUDGET     ?=
COMPARE    ?=

.PHONY: tune tune-build
tune-build: $(GEN)
	$(if $(TUNE_TIER),,$(error make tune: no GPU found (nvidia-smi); set TUNE_TIER=70, 80 or 90))
	@mkdir -p $(TUNE_B)
	$(call msg,GEN,$(TUNE_B)/generated [$(TUNE_SPACE)])$(GEN) --$(TUNE_SPACE) \
	  -o $(TUNE_B)/generated $(GEN_ARGS)
	$(Q)$(MAKE) --no-print-directory B=$(TUNE_B) G=$(TUNE_B)/generated REGEN=0 \
	  TILEOPS_ARCHS='$(TUNE_TIER)' $(TUNE_B)/tileops-bench
tune: tune-build $(BENCH) $(TUNE)
	$(TUNE) --bench $(TUNE_B)/tileops-bench --release-bench $(BENCH) \
	  --csv $(TUNE_B)/measurements.csv --out specs/tuned $(if $(BUDGET),--budget $(BUDGET)) \
	  $(if $(COMPARE),--compare $(COMPARE)) $(OPS)

# ---- sanitizers, fuzzing ------------------------------------------------------------------
# The host code (runtime, generator, tests, examples) again with AddressSanitizer and
# UndefinedBehaviorSanitizer, any report fatal, in build-sanitize/; the kernels' objects are
# this build's (nvcc host code is not instrumented). GPU cases skip without a GPU. Warnings are
# the normal build's to catch (WERROR=0 here: instrumented code at -O1 warns differently).
SAN_B     := build-sanitize
SAN_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
SAN_ENV   := ASAN_OPTIONS=detect_leaks=1:protect_shadow_gap=0:exitcode=99 \
             UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=99
sanitize: $(B)/regen.mk $(KERNEL_OBJS)
	$(Q)$(MAKE) --no-print-directory B=$(SAN_B) KB=$(B) REGEN=0 CFLAGS='$(SAN_FLAGS)' WERROR=0 \
	  TILEOPS_ARCHS='$(TILEOPS_ARCHS)' $(SAN_B)/tileops-gen $(SAN_B)/libtileops.a \
	  $(patsubst $(B)/%,$(SAN_B)/%,$(TESTS) $(EXAMPLES))
	@fail=0; for t in $(patsubst $(B)/%,$(SAN_B)/%,$(TESTS)); do echo "== $$t"; \
	   $(SAN_ENV) $$t || fail=1; done; \
	 for e in $(patsubst $(B)/%,$(SAN_B)/%,$(EXAMPLES)); do echo "== $$e"; \
	   $(SAN_ENV) $$e; rc=$$?; [ $$rc -le 1 ] || { echo "$$e: exit $$rc"; fail=1; }; done; \
	 if [ $$fail = 0 ]; then echo "sanitized suites passed"; \
	 else echo "sanitized suites FAILED"; exit 1; fi

# The fuzzers' long runs (make test runs short ones), from seed SEED: N spec mutants (default
# 10000, JOBS at once) and N API calls (default 10000000).
fuzz-spec: N ?= 10000
fuzz-spec: $(FUZZ_GEN)
	$(FUZZ_GEN) --seed $(SEED) --count $(N) --jobs $(JOBS)
fuzz-api: N ?= 10000000
fuzz-api: $(B)/tests/test_fuzz_api
	$(B)/tests/test_fuzz_api $(N) $(SEED)
fuzz: fuzz-spec fuzz-api

bench: $(BENCH)
	$(BENCH) ceiling
	$(BENCH) vector_add --dtype all
	$(BENCH) softmax --dtype all

# the version, from the header's TILEOPS_VERSION_* macros
VERSION := $(shell sed -n 's/^\#define TILEOPS_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$$/\2/p' \
             include/tileops.h | paste -sd.)
$(B)/tileops.pc: libops/tileops.pc.in FORCE
	@mkdir -p $(B)
	@sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' -e 's|@CUDA_LIBDIR@|$(CUDA_LIBDIR)|' \
	     -e 's|@CUDA_INCDIR@|$(CUDA_HOME)/include|' $< > $(B)/tileops.pc

install: $(LIB) $(B)/tileops.pc
	$(call msg,INSTALL,$(DESTDIR)$(PREFIX))install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	$(Q)install -m 644 include/tileops.h $(DESTDIR)$(PREFIX)/include/tileops.h
	$(Q)install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/libtileops.a
	$(Q)install -m 644 $(B)/tileops.pc $(DESTDIR)$(PREFIX)/lib/pkgconfig/tileops.pc

# Removes exactly the files install wrote, and lib/pkgconfig if that leaves it empty (include/
# and lib/ are shared folders of the prefix: they stay).
uninstall:
	$(call msg,UNINST,$(DESTDIR)$(PREFIX))rm -f $(DESTDIR)$(PREFIX)/include/tileops.h \
	  $(DESTDIR)$(PREFIX)/lib/libtileops.a $(DESTDIR)$(PREFIX)/lib/pkgconfig/tileops.pc
	$(Q)rmdir $(DESTDIR)$(PREFIX)/lib/pkgconfig 2>/dev/null || true

clean:
	$(call msg,CLEAN,$(B))rm -rf $(B) $(SAN_B) generated.tmp generated.lock

help:
	@sed -n '2,26s/^# \{0,1\}//p' Makefile

-include $(shell find $(B) -name '*.d' 2>/dev/null)
