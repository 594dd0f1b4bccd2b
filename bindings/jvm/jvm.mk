# The JVM binding (bindings/jvm/README.md), included by the top-level Makefile.
# `make test-jvm` builds the JNI glue and the Java classes with the JDK's javac, runs
# the JUnit 5 tests (Debian's junit5 jars) and runs the golden files through the golden
# driver (docs/golden-files.md) and GoldenAdapter.
.PHONY: jvm test-jvm test-golden-jvm

JAVAC        ?= javac
JAVA         ?= java
# The JDK whose javac builds the classes also gives the JNI headers: from javac's real
# path (/usr/lib/jvm/<jdk>/bin/javac), not JAVA_HOME, which may name a runtime without them.
JDK_HOME     ?= $(shell dirname $$(dirname $$(readlink -f $$(command -v $(JAVAC)))))
JUNIT_JARS   ?= /usr/share/java
JVM_OUT      := .build/jvm
# Header.java: the binding's version and C ABI version, written from include/corelogic.h
# (their one source) when the classes are built.
JVM_HEADER   := $(JVM_OUT)/generated/dev/corelogic/Header.java
JVM_SOURCES  := $(wildcard bindings/jvm/src/main/java/dev/corelogic/*.java) $(JVM_HEADER)
JVM_TESTS    := $(wildcard bindings/jvm/src/test/java/dev/corelogic/*.java)
JVM_JNI      := $(JVM_OUT)/libcorelogic_jni.so
JVM_TEST_CP  := $(JUNIT_JARS)/junit-jupiter-api.jar:$(JUNIT_JARS)/apiguardian-api.jar:$(JUNIT_JARS)/opentest4j.jar:$(JUNIT_JARS)/junit-platform-launcher.jar:$(JUNIT_JARS)/junit-platform-engine.jar:$(JUNIT_JARS)/junit-platform-commons.jar
JVM_RUN_CP   := $(JVM_OUT)/classes:$(JVM_OUT)/test-classes:$(JUNIT_JARS)/junit-platform-console-standalone.jar:$(JVM_TEST_CP)
JVM_RUN      := $(JAVA) -Dcorelogic.jni.library=$(CURDIR)/$(JVM_JNI) -Dcorelogic.library=$(GOLDEN_LIB)


# The glue does not link an app's library: it dlopens the one whose path the host gives
# (here -Dcorelogic.library, the library the tests load).
$(JVM_JNI): bindings/jvm/src/main/c/corelogic_jni.c bindings/common/corelogic_dl.h include/corelogic.h
	@mkdir -p $(JVM_OUT)
	$(CC) $(CFLAGS) -shared -fPIC -I$(JDK_HOME)/include -I$(JDK_HOME)/include/linux -Iinclude -Ibindings/common \
	    $< -o $@ -ldl
	@! ldd $@ | grep -q 'libcookbook\.so' || { echo "error: $@ links the app's library"; exit 1; }

$(JVM_HEADER): include/corelogic.h
	@mkdir -p $(dir $@)
	@abi=$$(sed -n 's/^#define CORELOGIC_ABI_VERSION \([0-9]*\)$$/\1/p' $<); \
	 version=$$(sed -n 's/^#define CORELOGIC_VERSION_STRING "\(.*\)"$$/\1/p' $<); \
	 test -n "$$abi" -a -n "$$version" || { echo "error: no version macros in $<"; exit 1; }; \
	 printf '%s\n' 'package dev.corelogic;' '' \
	    '/** Written by the build from include/corelogic.h, the one source of both numbers. */' \
	    'final class Header {' '    private Header() {}' '' \
	    '    /** CORELOGIC_ABI_VERSION: the C ABI the binding and its JNI glue are built for. */' \
	    "    static final int ABI_VERSION = $$abi;" '' \
	    '    /** CORELOGIC_VERSION_STRING: the binding'"'"'s version. */' \
	    "    static final String VERSION = \"$$version\";" '}' > $@

$(JVM_OUT)/classes.stamp: $(JVM_SOURCES)
	@rm -rf $(JVM_OUT)/classes && mkdir -p $(JVM_OUT)/classes
	$(JAVAC) -Xlint:all -Werror -d $(JVM_OUT)/classes $(JVM_SOURCES)
	@touch $@

$(JVM_OUT)/test-classes.stamp: $(JVM_TESTS) $(JVM_OUT)/classes.stamp
	@rm -rf $(JVM_OUT)/test-classes && mkdir -p $(JVM_OUT)/test-classes
	$(JAVAC) -d $(JVM_OUT)/test-classes -cp $(JVM_OUT)/classes:$(JVM_TEST_CP) $(JVM_TESTS)
	@touch $@

jvm: lib $(JVM_JNI) $(JVM_OUT)/classes.stamp ## the JNI glue and the Java classes

test-jvm: jvm $(JVM_OUT)/test-classes.stamp test-golden-jvm test-jvm-readme test-jvm-javadoc ## the JVM binding (JUnit 5), golden files, README, javadoc
	$(JVM_RUN) -cp $(JVM_RUN_CP) dev.corelogic.RunTests

test-golden-jvm: jvm $(JVM_OUT)/test-classes.stamp
	$(call golden_for,jvm,$(JVM_RUN) -cp $(JVM_OUT)/classes:$(JVM_OUT)/test-classes dev.corelogic.GoldenAdapter)

# The README's example, run with java's single-file source launcher.
.PHONY: test-jvm-readme
test-jvm-readme: jvm
	@mkdir -p $(JVM_OUT)/readme
	$(call readme_example,java,bindings/jvm/README.md) > $(JVM_OUT)/readme/Tour.java
	$(JVM_RUN) -cp $(JVM_OUT)/classes $(JVM_OUT)/readme/Tour.java

# The API documentation builds without a doclint error (broken links, bad tags, HTML).
JAVADOC ?= javadoc
.PHONY: test-jvm-javadoc
test-jvm-javadoc: $(JVM_OUT)/classes.stamp
	$(JAVADOC) -quiet -Xdoclint:all,-missing -Werror -d $(JVM_OUT)/javadoc $(JVM_SOURCES)
