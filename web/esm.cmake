# cmake -DIN=modelcheck-core.js -DOUT=modelcheck-core.mjs -P esm.cmake
# The package's ES module: the script, its .wasm (a data: URI) moved to an
# export of its own, wasmDataURI, so that Node can decode it at once and pass
# the bytes as wasmBinary (emscripten's loader would fetch the URI through
# Node's fetch, which costs about 0.2 s: docs/PERFORMANCE.md, "WebAssembly").
file(READ ${IN} text)
set(head "wasmBinaryFile=\"data:application/octet-stream;base64,")
string(FIND "${text}" "${head}" at)
if(at LESS 0)
  message(FATAL_ERROR "esm.cmake: no data: URI of the wasm in ${IN}")
endif()
string(LENGTH "wasmBinaryFile=" skip)
math(EXPR start "${at} + ${skip}")
string(SUBSTRING "${text}" ${start} -1 rest)
string(FIND "${rest}" "\";" end)
math(EXPR end "${end} + 1")
string(SUBSTRING "${rest}" 0 ${end} uri)
string(SUBSTRING "${text}" 0 ${start} before)
math(EXPR after_start "${start} + ${end}")
string(SUBSTRING "${text}" ${after_start} -1 after)
file(WRITE ${OUT} "${before}wasmDataURI${after}\nexport const wasmDataURI = ${uri};\nexport default createModelcheckCore;\n")
