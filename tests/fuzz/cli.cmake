# SPDX-License-Identifier: GPL-2.0-or-later
# The CLI's harnesses (included from CMakeLists.txt): its packet pipeline fed
# synthetic TCP segments, the whole pipeline on an in-memory capture, and the
# JSON reader with merge.
# Each links the library of the cli/ folder it drives (cli/CMakeLists.txt),
# so they exist only with the CLI.
if(TARGET iwscli_cmd)
  iws_add_fuzzer(fuzz_cli_packets SOURCES fuzz_cli_packets.c LIBS iwscli_track)
  iws_add_fuzzer(fuzz_cli_pcap SOURCES fuzz_cli_pcap.c LIBS iwscli_cmd)
  iws_add_fuzzer(fuzz_cli_merge SOURCES fuzz_cli_merge.c LIBS iwscli_merge)
  # fastread against libpcap on the same octets (issue 34)
  iws_add_fuzzer(fuzz_cli_fastread SOURCES fuzz_cli_fastread.c LIBS iwscli_input)
  set(IWS_CLI_FUZZERS fuzz_cli_packets fuzz_cli_pcap fuzz_cli_merge fuzz_cli_fastread)
endif()

# With libFuzzer (ENABLE_FUZZING): every harness replays its committed corpus
# (fuzz_replay_<name>, -runs=0) and fuzzes for a short while
# (fuzz_run_<name>, IWS_FUZZ_SECONDS each, default 30) starting from it; new
# inputs go to the build tree, never into tests/fuzz/corpus. ctest -L fuzz
# runs them; tests/fuzz/run-fuzzers.sh fuzzes for as long as you like.
if(ENABLE_FUZZING)
  set(IWS_FUZZ_SECONDS 30 CACHE STRING "Seconds each fuzz_run_<name> test fuzzes")
  foreach(f ${IWS_CORE_FUZZERS} ${IWS_CLI_FUZZERS})
    add_test(NAME fuzz_replay_${f}
             COMMAND ${f} -runs=0 ${CMAKE_CURRENT_SOURCE_DIR}/corpus/${f})
    add_test(NAME fuzz_run_${f}
             COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/ci-fuzz.sh $<TARGET_FILE:${f}>
                     ${CMAKE_CURRENT_SOURCE_DIR}/corpus/${f}
                     ${CMAKE_CURRENT_BINARY_DIR}/fuzz-work/${f} ${IWS_FUZZ_SECONDS})
    math(EXPR _t "${IWS_FUZZ_SECONDS} * 3 + 120")
    set_tests_properties(fuzz_replay_${f} fuzz_run_${f} PROPERTIES LABELS "fuzz"
                         ENVIRONMENT "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1")
    set_tests_properties(fuzz_run_${f} PROPERTIES TIMEOUT ${_t} RUN_SERIAL TRUE)
  endforeach()
else()
  foreach(f ${IWS_CORE_FUZZERS} ${IWS_CLI_FUZZERS})
    set_tests_properties(fuzz_replay_${f} PROPERTIES LABELS "fuzz")
  endforeach()
endif()
