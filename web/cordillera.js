// The loader of Cordillera's web page: it checks for WebGL before loading
// the WebAssembly explorer, gives Go an in-memory file system in which a
// file saved (the File panel's Save map and Save params, F12 screenshots)
// becomes a download, and wires the Copy link and Open file buttons to the
// explorer (globalThis.cordilleraLink and cordilleraOpen, set by
// game/web_js.go). Served over HTTP it streams cordillera.wasm; opened
// from a folder (file://), where browsers refuse fetch(), it loads the
// same program from the script cordillera.wasm.js.
"use strict";

const cordillera = (() => {
	const say = (text) => {
		const m = document.getElementById("message");
		m.style.display = "flex";
		m.firstElementChild.textContent = text;
	};

	// Downloads made so far, newest last: {name, size}. The tests read it.
	globalThis.cordilleraDownloads = [];

	const download = (name, data) => {
		const type = name.endsWith(".png") ? "image/png" : name.endsWith(".json") ? "application/json" : "application/octet-stream";
		const url = URL.createObjectURL(new Blob([data], { type }));
		const a = document.createElement("a");
		a.href = url;
		a.download = name;
		document.body.appendChild(a);
		a.click();
		a.remove();
		setTimeout(() => URL.revokeObjectURL(url), 60000);
		globalThis.cordilleraDownloads.push({ name, size: data.length });
	};

	// memfs is the part of Node's fs API that Go's syscall package calls on
	// js/wasm, over files held in memory. Go's atomic writes create a
	// temporary file and rename it into place: the rename is the moment a
	// save is complete, so it hands the file to the browser as a download
	// and forgets it. Standard output and error go to the console.
	const memfs = (() => {
		const err = (code) => { const e = new Error(code); e.code = code; return e; };
		const files = new Map(); // path → {data: Uint8Array, size, mode}
		const fds = new Map();   // fd → {path, file}
		let nextFD = 100;
		const C = { O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_EXCL: 128, O_TRUNC: 512, O_APPEND: 1024, O_DIRECTORY: 65536 };
		const decoder = new TextDecoder("utf-8");
		const out = { 1: "", 2: "" };
		const stat = (f) => ({
			dev: 1, ino: 1, mode: 0o100000 | f.mode, nlink: 1, uid: 0, gid: 0, rdev: 0, size: f.size,
			blksize: 4096, blocks: Math.ceil(f.size / 512), atimeMs: 0, mtimeMs: Date.now(), ctimeMs: 0,
			isDirectory: () => false,
		});
		const grow = (f, need) => {
			if (need <= f.data.length) return;
			const d = new Uint8Array(Math.max(need, 2 * f.data.length));
			d.set(f.data.subarray(0, f.size));
			f.data = d;
		};
		return {
			constants: C,
			writeSync(fd, buf) {
				if (fd === 1 || fd === 2) {
					out[fd] += decoder.decode(buf);
					const nl = out[fd].lastIndexOf("\n");
					if (nl !== -1) {
						(fd === 2 ? console.warn : console.log)(out[fd].substring(0, nl));
						out[fd] = out[fd].substring(nl + 1);
					}
					return buf.length;
				}
				const h = fds.get(fd);
				if (!h) throw err("EBADF");
				grow(h.file, h.pos + buf.length);
				h.file.data.set(buf, h.pos);
				h.pos += buf.length;
				h.file.size = Math.max(h.file.size, h.pos);
				return buf.length;
			},
			write(fd, buf, offset, length, position, cb) {
				try {
					const h = fds.get(fd);
					if (h && position !== null) h.pos = position;
					cb(null, this.writeSync(fd, buf.subarray(offset, offset + length)));
				} catch (e) { cb(e); }
			},
			read(fd, buf, offset, length, position, cb) {
				const h = fds.get(fd);
				if (!h) return cb(err("EBADF"));
				const pos = position === null ? h.pos : position;
				const n = Math.max(0, Math.min(length, h.file.size - pos));
				buf.set(h.file.data.subarray(pos, pos + n), offset);
				if (position === null) h.pos += n;
				cb(null, n);
			},
			open(path, flags, mode, cb) {
				let f = files.get(path);
				if (f && (flags & C.O_CREAT) && (flags & C.O_EXCL)) return cb(err("EEXIST"));
				if (!f) {
					if (!(flags & C.O_CREAT)) return cb(err("ENOENT"));
					f = { data: new Uint8Array(1 << 16), size: 0, mode: mode & 0o777 };
					files.set(path, f);
				}
				if (flags & C.O_TRUNC) f.size = 0;
				const fd = nextFD++;
				fds.set(fd, { path, file: f, pos: (flags & C.O_APPEND) ? f.size : 0 });
				cb(null, fd);
			},
			close(fd, cb) { fds.delete(fd); cb(null); },
			fsync(fd, cb) { cb(null); },
			fstat(fd, cb) { const h = fds.get(fd); h ? cb(null, stat(h.file)) : cb(err("EBADF")); },
			stat(path, cb) { const f = files.get(path); f ? cb(null, stat(f)) : cb(err("ENOENT")); },
			lstat(path, cb) { this.stat(path, cb); },
			chmod(path, mode, cb) { const f = files.get(path); if (f) f.mode = mode & 0o777; f ? cb(null) : cb(err("ENOENT")); },
			fchmod(fd, mode, cb) { cb(null); },
			unlink(path, cb) { files.delete(path) ? cb(null) : cb(err("ENOENT")); },
			rename(from, to, cb) {
				const f = files.get(from);
				if (!f) return cb(err("ENOENT"));
				files.delete(from);
				download(to.split("/").pop(), f.data.slice(0, f.size));
				cb(null);
			},
			readdir(path, cb) { cb(err("ENOENT")); },
			mkdir(path, perm, cb) { cb(err("EROFS")); },
			rmdir(path, cb) { cb(err("ENOENT")); },
			readlink(path, cb) { cb(err("EINVAL")); },
			truncate(path, length, cb) { cb(err("ENOSYS")); },
			ftruncate(fd, length, cb) { const h = fds.get(fd); if (h) h.file.size = Math.min(h.file.size, length); cb(null); },
			utimes(path, atime, mtime, cb) { cb(null); },
			chown(path, uid, gid, cb) { cb(null); },
			fchown(fd, uid, gid, cb) { cb(null); },
			lchown(path, uid, gid, cb) { cb(null); },
			link(path, link, cb) { cb(err("ENOSYS")); },
			symlink(path, link, cb) { cb(err("ENOSYS")); },
		};
	})();
	globalThis.fs = memfs;

	// The buttons at the top right: a link to the world shown, and files
	// opened as if dropped on the page.
	const wireButtons = () => {
		const bar = document.getElementById("bar");
		bar.style.display = "flex";
		const link = document.getElementById("link");
		document.getElementById("copy").onclick = () => {
			const fragment = globalThis.cordilleraLink ? globalThis.cordilleraLink() : "";
			const url = location.href.split("#")[0] + (fragment ? "#" + fragment : "");
			history.replaceState(null, "", url); // the address bar holds the link too
			link.value = url;
			link.style.display = "inline-block";
			link.select();
			if (navigator.clipboard && window.isSecureContext) {
				navigator.clipboard.writeText(url).catch(() => {});
			} else {
				document.execCommand("copy");
			}
		};
		const input = document.getElementById("file");
		document.getElementById("open").onclick = () => input.click();
		input.onchange = async () => {
			for (const f of input.files) {
				const data = new Uint8Array(await f.arrayBuffer());
				globalThis.cordilleraOpen(f.name, data);
			}
			input.value = "";
		};
	};

	// wasmFromScript loads the explorer for a page opened from a folder:
	// browsers refuse fetch() of file:// URLs but run a <script src> beside
	// the page. The script ('cordillera web' writes it, web/wasmscript.go)
	// sets the .wasm gzipped and in base64; the browser's own
	// DecompressionStream inflates it as it is compiled.
	const wasmFromScript = async (src) => {
		await new Promise((resolve, reject) => {
			const s = document.createElement("script");
			s.src = src;
			s.onload = resolve;
			s.onerror = () => reject(new Error("missing beside index.html (write the folder again with 'cordillera web -o')"));
			document.head.appendChild(s);
		});
		const text = globalThis.cordilleraWasmGzipBase64;
		delete globalThis.cordilleraWasmGzipBase64;
		if (typeof text !== "string") throw new Error("it does not hold the explorer");
		if (typeof DecompressionStream !== "function") {
			throw new Error("this browser cannot unpack it (no DecompressionStream): serve the folder instead, " +
				"with 'cordillera web -serve :8080' or 'python3 -m http.server' in it");
		}
		let gz;
		if (typeof Uint8Array.fromBase64 === "function") {
			gz = Uint8Array.fromBase64(text);
		} else {
			const bin = atob(text);
			gz = new Uint8Array(bin.length);
			for (let i = 0; i < bin.length; i++) gz[i] = bin.charCodeAt(i);
		}
		const wasmStream = new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip"));
		return new Response(wasmStream, { headers: { "Content-Type": "application/wasm" } });
	};

	const start = async (wasm) => {
		const probe = document.createElement("canvas");
		if (!(probe.getContext("webgl2") || probe.getContext("webgl"))) {
			say("Cordillera draws its terrain with WebGL, and this browser has none to offer: it is switched off, " +
				"or the graphics driver is blocked. Turn on hardware acceleration (or WebGL) in the browser's settings, " +
				"or try another browser.");
			globalThis.cordilleraNoWebGL = true;
			return;
		}
		if (typeof WebAssembly !== "object") {
			say("Cordillera runs as WebAssembly, which this browser does not support. Try a current Firefox, Chrome, Edge or Safari.");
			return;
		}
		const go = new Go();
		let result;
		const fromFolder = location.protocol === "file:";
		const source = fromFolder ? wasm + ".js" : wasm;
		try {
			say("Loading Cordillera…");
			if (fromFolder) {
				result = await WebAssembly.instantiateStreaming(await wasmFromScript(source), go.importObject);
			} else {
				const response = fetch(wasm);
				try {
					result = await WebAssembly.instantiateStreaming(response, go.importObject);
				} catch (e) { // a server that does not send application/wasm
					const r = await fetch(wasm);
					if (!r.ok) throw new Error(wasm + ": " + r.status + " " + r.statusText);
					result = await WebAssembly.instantiate(await r.arrayBuffer(), go.importObject);
				}
			}
		} catch (e) {
			say("Could not load " + source + ": " + e.message);
			return;
		}
		document.getElementById("message").style.display = "none";
		globalThis.cordilleraLoaded = performance.now();
		globalThis.cordilleraSource = source; // which file the explorer came from, for the tests
		wireButtons();
		await go.run(result.instance);
		say("Cordillera has stopped. Reload the page to start it again.");
	};
	return { start };
})();
