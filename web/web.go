package web

import "embed"

// Page holds the page's own files: index.html and cordillera.js (the
// loader: the WebGL check, an in-memory file system whose saved files
// become downloads, the copy-link and open-file buttons). The folder
// 'cordillera web' writes adds cordillera.wasm, the same in a script for
// pages opened from a folder (WasmScriptFile) and the toolchain's
// wasm_exec.js.
//
//go:embed index.html cordillera.js
var Page embed.FS

// WasmFile is the name the page loads the explorer from.
const WasmFile = "cordillera.wasm"
