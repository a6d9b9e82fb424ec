# cmake -DIN=modelcheck-core.js -DOUT=modelcheck-core.mjs -P esm.cmake
file(READ ${IN} text)
file(WRITE ${OUT} "${text}\nexport default createModelcheckCore;\n")
