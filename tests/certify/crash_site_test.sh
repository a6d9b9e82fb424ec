#!/usr/bin/env bash
# Crash sites (conformance/certify/crash_sites.c) of sanitizer reports of
# each kind, through mc_crash_site: the exact site, or nothing.
# usage: crash_site_test.sh MC_CRASH_SITE
set -u
tool=$1
fail=0
check() { # NAME EXPECTED (report on stdin)
    local got
    got=$("$tool")
    if [ "$got" != "$2" ]; then
        echo "FAIL $1: got '$got', expected '$2'"
        fail=1
    fi
}

# ASan: interceptor and C library frames skipped, two frames of the loader,
# directories and lines dropped; the "allocated by" stack is not read.
check asan-interceptor "heap-buffer-overflow in core.c:aem_load_model < adapter.c:mc_certify_load" <<'R'
some loader output first
=================================================================
==42==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602 at pc 0x7f bp 0x7ff sp 0x7fe
READ of size 4 at 0x602 thread T0
    #0 0x7f0 in __interceptor_memcpy ../../../../src/libsanitizer/sanitizer_common/sanitizer_common_interceptors.inc:827
    #1 0x7f1 in aem_load_model /src/aem/libaem/core.c:61:3
    #2 0x7f2 in mc_certify_load /src/adapter.c:240
    #3 0x7f3 in child_main /src/runner.c:251

0x602 is located 0 bytes to the right of 8-byte region
allocated by thread T0 here:
    #0 0x7f4 in __interceptor_malloc ../../../../src/libsanitizer/asan/asan_malloc_linux.cpp:69
    #1 0x7f5 in other_function /src/other.c:1
R

# Frames past the ABI entry point are the caller's; system headers skipped.
check asan-entry "SEGV in adapter.c:mc_certify_load" <<'R'
==7==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000 (pc 0x1 bp 0x2 sp 0x3 T0)
==7==The signal is caused by a READ memory access.
    #0 0x1 in _mm_load_ps /usr/lib/gcc/x86_64-linux-gnu/12/include/xmmintrin.h:931
    #1 0x2 in mc_certify_load /src/adapter.c:12
    #2 0x3 in LLVMFuzzerTestOneInput /src/fuzz_abi.c:80
R

# UBSan: the message's words up to the first value.
check ubsan "load of misaligned address in anim_model.c:samfInitData < adapter.c:mc_certify_load" <<'R'
/src/framework/anim_model.c:116:18: runtime error: load of misaligned address 0xf5403f1e for type 'uint32_t', which requires 4 byte alignment
0xf5403f1e: note: pointer points here
    #0 0x565b1e6f in samfInitData /src/framework/anim_model.c:116
    #1 0x565adc1d in mc_certify_load /src/adapter.c:128
    #2 0x565ae8ee in main /src/adapter.c:162
R
check ubsan-division "division by zero in anim_model.c:setAnimationKeyframeSkinned < adapter.c:step_skinned" <<'R'
anim_model.c:134:14: runtime error: division by zero
    #0 0x1 in setAnimationKeyframeSkinned /src/framework/anim_model.c:134
    #1 0x2 in step_skinned /src/adapter.c:90
R

# libFuzzer's own findings replayed, and leaks.
check libfuzzer-timeout "timeout in animation.c:aem_evaluate_model_animation < adapter.c:viewer_frames" <<'R'
ALARM: working on the last Unit for 5 seconds
==9== ERROR: libFuzzer: timeout after 5 seconds
    #0 0x1 in __sanitizer_print_stack_trace ../../../../src/compiler-rt/lib/asan/asan_stack.cpp:87
    #1 0x2 in fuzzer::PrintStackTrace() fuzzer/FuzzerUtil.cpp:210
    #2 0x3 in aem_evaluate_model_animation /src/libaem/animation.c:146
    #3 0x4 in viewer_frames /src/adapter.c:215
R
check leak "memory leak in core.c:aem_load_model < adapter.c:mc_certify_load" <<'R'
==5==ERROR: LeakSanitizer: detected memory leaks

Direct leak of 224 byte(s) in 1 object(s) allocated from:
    #0 0x1 in __interceptor_malloc ../../../../src/libsanitizer/asan/asan_malloc_linux.cpp:69
    #1 0x2 in aem_load_model /src/libaem/core.c:8
    #2 0x3 in mc_certify_load /src/adapter.c:230
R

# clang's symbolizer: C++ frames carry their parameter lists (with spaces).
check cxx-frame "allocator is out of memory in adapter.c:viewer_load_bones < adapter.c:mc_certify_load" <<'R'
==8==ERROR: AddressSanitizer: allocator is out of memory trying to allocate 0x2fafafaf80 bytes
    #0 0x1 in malloc /src/llvm/compiler-rt/lib/asan/asan_malloc_linux.cpp:69:3
    #1 0x2 in printf_common(void*, char const*, __va_list_tag*) /src/compiler-rt/lib/sanitizer_common/sanitizer_common_interceptors_format.inc:553:9
    #2 0x3 in viewer_load_bones /src/adapter.c:129:26
    #3 0x4 in mc_certify_load /src/adapter.c:255:5
R

# Frames without source carry a BuildId: skipped like any library offset.
check build-id "out-of-memory in core.c:aem_load_model < adapter.c:mc_certify_load" <<'R'
==18640== ERROR: libFuzzer: out-of-memory (malloc(3873891904))
    #0 0x1 in __sanitizer_print_stack_trace (/b/mc_fuzz_abi_aem_sa+0x159d61) (BuildId: 38ea0945d42aa848b07505d4c7481bdbbe2a0f74)
    #5 0x2 in __asan::Allocator::Allocate(unsigned long, unsigned long, __sanitizer::BufferedStackTrace*, __asan::AllocType, bool) (/b/mc_fuzz+0xcf8e4) (BuildId: 38ea0945d42aa848b07505d4c7481bdbbe2a0f74)
    #6 0x3 in malloc (/b/mc_fuzz_abi_aem_sa+0x1d0e3) (BuildId: 38ea0945d42aa848b07505d4c7481bdbbe2a0f74)
    #7 0x4 in aem_load_model /src/libaem/core.c:51:34
    #8 0x5 in mc_certify_load /src/adapter.c:238:20
R

# No stack at all (a report cut short): the kind alone. No report: nothing.
check no-stack "stack-overflow" <<'R'
==3==ERROR: AddressSanitizer: stack-overflow on address 0x7ffe
R
check no-report "" <<'R'
rejected: not an AEM file
R

# Unhandled exceptions of managed runtimes (mcc_exception_site): the type
# and the innermost frame, recognised with the runtime's exit status.
checkx() { # NAME EXIT EXPECTED (stderr on stdin)
    local got
    got=$("$tool" --exception "$2")
    if [ "$got" != "$3" ]; then
        echo "FAIL $1: got '$got', expected '$3'"
        fail=1
    fi
}
python_tb='Traceback (most recent call last):
  File "/src/tests/fuzz/semodel_reader.py", line 70, in <module>
    main()
  File "/src/tests/fuzz/semodel_reader.py", line 40, in mesh_kind
    return MESH_KINDS[flags]
           ~~~~~~~~~~^^^^^^^
IndexError: list index out of range'
checkx python 1 "Python IndexError in semodel_reader.py:mesh_kind" <<< "$python_tb"
# the same text with another exit status is no Python exception
checkx python-exit-2 2 "" <<< "$python_tb"
# a chained traceback: the last exception is the one that ended it
checkx python-chained 1 "Python struct.error in r.py:header" <<'R'
Traceback (most recent call last):
  File "r.py", line 3, in read
KeyError: 'x'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "r.py", line 9, in header
struct.error: unpack_from requires a buffer of at least 4 bytes
R
# the header pushed out of the stderr tail: the frames still tell
checkx python-cut 1 "Python ZeroDivisionError in r.py:scale" <<'R'
  File "r.py", line 9, in scale
    return a / b
ZeroDivisionError: division by zero
R
# the interpreter's library is skipped for the loader's own frame
checkx python-stdlib 1 "Python json.decoder.JSONDecodeError in meta.py:load_meta" <<'R'
Traceback (most recent call last):
  File "/src/meta.py", line 4, in load_meta
    return json.loads(text)
  File "/usr/lib/python3.11/json/__init__.py", line 346, in loads
    return _default_decoder.decode(s)
  File "/usr/lib/python3.11/json/decoder.py", line 355, in raw_decode
    raise JSONDecodeError("Expecting value", s, err.value) from None
json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)
R
checkx python-refusal 1 "" <<'R'
reader: not an SEModel file
R
checkx mono -6 ".NET System.IndexOutOfRangeException in Reader.ReadMesh" <<'R'
[ERROR] FATAL UNHANDLED EXCEPTION: System.IndexOutOfRangeException: Index was outside the bounds of the array.
  at Reader.ReadMesh (System.IO.BinaryReader r) [0x00012] in <8f1c>:0
  at Reader.Main (System.String[] args) [0x00001] in <8f1c>:0
R
checkx mono-old 1 ".NET System.NullReferenceException in Loader.Load" <<'R'
Unhandled Exception:
System.NullReferenceException: Object reference not set to an instance of an object
  at Loader.Load (System.String path) [0x00000] in <abc>:0
R
checkx dotnet 134 ".NET System.ArgumentOutOfRangeException in Smd.Model.Read" <<'R'
Unhandled exception. System.ArgumentOutOfRangeException: Index was out of range. (Parameter 'index')
   at Smd.Model.Read(BinaryReader r) in /src/Model.cs:line 42
   at Smd.Program.Main(String[] args) in /src/Program.cs:line 7
R
checkx java 1 "Java java.lang.ArrayIndexOutOfBoundsException in org.x.Reader.faces" <<'R'
Exception in thread "main" java.lang.ArrayIndexOutOfBoundsException: Index 7 out of bounds for length 3
	at org.x.Reader.faces(Reader.java:88)
	at org.x.Reader.main(Reader.java:12)
R
# the runtimes' own frames skipped for the loader's
checkx dotnet-list 134 ".NET System.ArgumentOutOfRangeException in Smd.Model.ReadFaces" <<'R'
Unhandled exception. System.ArgumentOutOfRangeException: Index was out of range. Must be non-negative and less than the size of the collection. (Parameter 'index')
   at System.ThrowHelper.ThrowArgumentOutOfRange_IndexMustBeLessException()
   at System.Collections.Generic.List`1.get_Item(Int32 index)
   at Smd.Model.ReadFaces(BinaryReader r) in /src/Model.cs:line 61
   at Smd.Program.Main(String[] args) in /src/Program.cs:line 7
R
checkx java-module 1 "Java java.lang.IndexOutOfBoundsException in org.x.Reader.bone" <<'R'
Exception in thread "main" java.lang.IndexOutOfBoundsException: Index 4 out of bounds for length 2
	at java.base/jdk.internal.util.Preconditions.outOfBounds(Preconditions.java:100)
	at java.base/java.util.Objects.checkIndex(Objects.java:385)
	at java.base/java.util.ArrayList.get(ArrayList.java:427)
	at org.x.Reader.bone(Reader.java:31)
	at org.x.Reader.main(Reader.java:12)
R
checkx java-no-frame 1 "Java java.lang.OutOfMemoryError" <<'R'
Exception in thread "main" java.lang.OutOfMemoryError: Java heap space
R
checkx java-exit-0 0 "" <<'R'
Exception in thread "main" java.lang.OutOfMemoryError: Java heap space
R
[ $fail -eq 0 ] && echo "crash sites: 24 reports, every site as expected"
exit $fail
