// \0rolldown/runtime.js
var e = Object.create, t = Object.defineProperty, n = Object.getOwnPropertyDescriptor, r = Object.getOwnPropertyNames, i = Object.getPrototypeOf, a = Object.prototype.hasOwnProperty, o = (e, t) => () => (t || (e((t = { exports: {} }).exports, t, t.exports), e = null), t.exports), s = (e, i, o, s) => {
	if (i && typeof i == "object" || typeof i == "function") for (var c = r(i), l = 0, u = c.length, d; l < u; l++) d = c[l], !a.call(e, d) && d !== o && t(e, d, {
		get: ((e) => i[e]).bind(null, d),
		enumerable: !(s = n(i, d)) || s.enumerable
	});
	return e;
}, c = (n, r, o) => (o = n == null ? {} : e(i(n)), s(r || !n || !n.__esModule || !a.call(n, "default") ? t(o, "default", {
	value: n,
	enumerable: !0
}) : o, n)), l = new window.BroadcastChannel("pub-sub-es"), u = (e) => typeof e == "string", d = (e, t) => u(e) && t ? e.toLowerCase() : e, f = (e, t) => (n, r, i = Infinity) => {
	let a = d(n, t?.caseInsensitive), o = e[a] || [];
	return o.push({
		handler: r,
		times: +i || Infinity
	}), e[a] = o, {
		event: a,
		handler: r
	};
}, p = (e) => typeof e == "object";
function m(e, t) {
	function n(n, r) {
		let i, a;
		p(n) ? (a = n.handler, i = n.event) : (i = n, a = r);
		let o = e[d(i, t?.caseInsensitive)];
		if (!o) return;
		let s = o.findIndex((e) => e.handler === a);
		s === -1 || s >= o.length || o.splice(s, 1);
	}
	return n;
}
var h = (e) => !!e, g = (e, t) => {
	let n = m(e);
	return (...r) => {
		let [i, a, o] = r, s = d(i, t?.caseInsensitive), c = e[s];
		if (!h(c)) return;
		let u = [...c];
		for (let e of u) --e.times < 1 && n(s, e.handler);
		let f = o?.async === void 0 ? t?.async : o.async, p = () => {
			for (let e of u) e.handler(a);
		};
		if (f ? setTimeout(p, 0) : p(), t?.isGlobal && !o?.isNoGlobalBroadcast) try {
			l.postMessage({
				event: s,
				news: a
			});
		} catch (e) {
			if (e instanceof Error && e.name === "DataCloneError") console.warn(`Could not broadcast '${s.toString()}' globally. Payload is not clonable.`);
			else throw e;
		}
	};
};
function _(e) {
	return Object.keys(e);
}
var v = (e) => () => {
	for (let t of _(e)) delete e[t];
}, y = () => ({}), b = (e) => {
	let t = !!e?.async, n = !!e?.caseInsensitive, r = e?.stack || y();
	return {
		publish: g(r, {
			async: t,
			caseInsensitive: n
		}),
		subscribe: f(r, { caseInsensitive: n }),
		unsubscribe: m(r, { caseInsensitive: n }),
		clear: v(r),
		stack: r
	};
}, x = y(), S = {
	publish: g(x, { isGlobal: !0 }),
	subscribe: f(x),
	unsubscribe: m(x),
	clear: v(x),
	stack: x
};
l.onmessage = ({ data: { event: e, news: t } }) => S.publish(e, t, { isNoGlobalBroadcast: !0 });
// node_modules/regl-scatterplot/dist/regl-scatterplot.esm.js
var C = /* @__PURE__ */ c((/* @__PURE__ */ o(((e, t, n) => {
	(function(n, r) {
		typeof e == "object" && t !== void 0 ? t.exports = r() : typeof define == "function" && define.amd ? define(r) : n.createREGL = r();
	})(n, (function() {
		var e = function(e) {
			return e instanceof Uint8Array || e instanceof Uint16Array || e instanceof Uint32Array || e instanceof Int8Array || e instanceof Int16Array || e instanceof Int32Array || e instanceof Float32Array || e instanceof Float64Array || e instanceof Uint8ClampedArray;
		}, t = function(e, t) {
			for (var n = Object.keys(t), r = 0; r < n.length; ++r) e[n[r]] = t[n[r]];
			return e;
		}, n = "\n";
		function r(e) {
			return typeof atob < "u" ? atob(e) : "base64:" + e;
		}
		function i(e) {
			var t = /* @__PURE__ */ Error("(regl) " + e);
			throw console.error(t), t;
		}
		function a(e, t) {
			e || i(t);
		}
		function o(e) {
			return e ? ": " + e : "";
		}
		function s(e, t, n) {
			e in t || i("unknown parameter (" + e + ")" + o(n) + ". possible values: " + Object.keys(t).join());
		}
		function c(t, n) {
			e(t) || i("invalid parameter type" + o(n) + ". must be a typed array");
		}
		function l(e, t) {
			switch (t) {
				case "number": return typeof e == "number";
				case "object": return typeof e == "object";
				case "string": return typeof e == "string";
				case "boolean": return typeof e == "boolean";
				case "function": return typeof e == "function";
				case "undefined": return e === void 0;
				case "symbol": return typeof e == "symbol";
			}
		}
		function u(e, t, n) {
			l(e, t) || i("invalid parameter type" + o(n) + ". expected " + t + ", got " + typeof e);
		}
		function d(e, t) {
			e >= 0 && (e | 0) === e || i("invalid parameter type, (" + e + ")" + o(t) + ". must be a nonnegative integer");
		}
		function f(e, t, n) {
			t.indexOf(e) < 0 && i("invalid value" + o(n) + ". must be one of: " + t);
		}
		var p = [
			"gl",
			"canvas",
			"container",
			"attributes",
			"pixelRatio",
			"extensions",
			"optionalExtensions",
			"profile",
			"onDone"
		];
		function m(e) {
			Object.keys(e).forEach(function(e) {
				p.indexOf(e) < 0 && i("invalid regl constructor argument \"" + e + "\". must be one of " + p);
			});
		}
		function h(e, t) {
			for (e += ""; e.length < t;) e = " " + e;
			return e;
		}
		function g() {
			this.name = "unknown", this.lines = [], this.index = {}, this.hasErrors = !1;
		}
		function _(e, t) {
			this.number = e, this.line = t, this.errors = [];
		}
		function v(e, t, n) {
			this.file = e, this.line = t, this.message = n;
		}
		function y() {
			var e = /* @__PURE__ */ Error(), t = (e.stack || e).toString(), n = /compileProcedure.*\n\s*at.*\((.*)\)/.exec(t);
			if (n) return n[1];
			var r = /compileProcedure.*\n\s*at\s+(.*)(\n|$)/.exec(t);
			return r ? r[1] : "unknown";
		}
		function b() {
			var e = /* @__PURE__ */ Error(), t = (e.stack || e).toString(), n = /at REGLCommand.*\n\s+at.*\((.*)\)/.exec(t);
			if (n) return n[1];
			var r = /at REGLCommand.*\n\s+at\s+(.*)\n/.exec(t);
			return r ? r[1] : "unknown";
		}
		function x(e, t) {
			var n = e.split("\n"), i = 1, a = 0, o = {
				unknown: new g(),
				0: new g()
			};
			o.unknown.name = o[0].name = t || y(), o.unknown.lines.push(new _(0, ""));
			for (var s = 0; s < n.length; ++s) {
				var c = n[s], l = /^\s*#\s*(\w+)\s+(.+)\s*$/.exec(c);
				if (l) switch (l[1]) {
					case "line":
						var u = /(\d+)(\s+\d+)?/.exec(l[2]);
						u && (i = u[1] | 0, u[2] && (a = u[2] | 0, a in o || (o[a] = new g())));
						break;
					case "define":
						var d = /SHADER_NAME(_B64)?\s+(.*)$/.exec(l[2]);
						d && (o[a].name = d[1] ? r(d[2]) : d[2]);
				}
				o[a].lines.push(new _(i++, c));
			}
			return Object.keys(o).forEach(function(e) {
				var t = o[e];
				t.lines.forEach(function(e) {
					t.index[e.number] = e;
				});
			}), o;
		}
		function S(e) {
			var t = [];
			return e.split("\n").forEach(function(e) {
				if (!(e.length < 5)) {
					var n = /^ERROR:\s+(\d+):(\d+):\s*(.*)$/.exec(e);
					n ? t.push(new v(n[1] | 0, n[2] | 0, n[3].trim())) : e.length > 0 && t.push(new v("unknown", 0, e));
				}
			}), t;
		}
		function C(e, t) {
			t.forEach(function(t) {
				var n = e[t.file];
				if (n) {
					var r = n.index[t.line];
					if (r) {
						r.errors.push(t), n.hasErrors = !0;
						return;
					}
				}
				e.unknown.hasErrors = !0, e.unknown.lines[0].errors.push(t);
			});
		}
		function w(e, t, r, i, o) {
			if (!e.getShaderParameter(t, e.COMPILE_STATUS)) {
				var s = e.getShaderInfoLog(t), c = i === e.FRAGMENT_SHADER ? "fragment" : "vertex";
				j(r, "string", c + " shader source must be a string", o);
				var l = x(r, o);
				C(l, S(s)), Object.keys(l).forEach(function(e) {
					var t = l[e];
					if (!t.hasErrors) return;
					var r = [""], i = [""];
					function a(e, t) {
						r.push(e), i.push(t || "");
					}
					a("file number " + e + ": " + t.name + "\n", "color:red;text-decoration:underline;font-weight:bold"), t.lines.forEach(function(e) {
						if (e.errors.length > 0) {
							a(h(e.number, 4) + "|  ", "background-color:yellow; font-weight:bold"), a(e.line + n, "color:red; background-color:yellow; font-weight:bold");
							var t = 0;
							e.errors.forEach(function(r) {
								var i = r.message, o = /^\s*'(.*)'\s*:\s*(.*)$/.exec(i);
								if (o) {
									var s = o[1];
									i = o[2], s === "assign" && (s = "="), t = Math.max(e.line.indexOf(s, t), 0);
								} else t = 0;
								a(h("| ", 6)), a(h("^^^", t + 3) + n, "font-weight:bold"), a(h("| ", 6)), a(i + n, "font-weight:bold");
							}), a(h("| ", 6) + n);
						} else a(h(e.number, 4) + "|  "), a(e.line + n, "color:red");
					}), typeof document < "u" && !window.chrome ? (i[0] = r.join("%c"), console.log.apply(console, i)) : console.log(r.join(""));
				}), a.raise("Error compiling " + c + " shader, " + l[0].name);
			}
		}
		function T(e, t, r, i, o) {
			if (!e.getProgramParameter(t, e.LINK_STATUS)) {
				var s = e.getProgramInfoLog(t), c = x(r, o), l = "Error linking program with vertex shader, \"" + x(i, o)[0].name + "\", and fragment shader \"" + c[0].name + "\"";
				typeof document < "u" ? console.log("%c" + l + n + "%c" + s, "color:red;text-decoration:underline;font-weight:bold", "color:red") : console.log(l + n + s), a.raise(l);
			}
		}
		function E(e) {
			e._commandRef = y();
		}
		function D(e, t, n, r) {
			E(e);
			function i(e) {
				return e ? r.id(e) : 0;
			}
			e._fragId = i(e.static.frag), e._vertId = i(e.static.vert);
			function a(e, t) {
				Object.keys(t).forEach(function(t) {
					e[r.id(t)] = !0;
				});
			}
			var o = e._uniformSet = {};
			a(o, t.static), a(o, t.dynamic);
			var s = e._attributeSet = {};
			a(s, n.static), a(s, n.dynamic), e._hasCount = "count" in e.static || "count" in e.dynamic || "elements" in e.static || "elements" in e.dynamic;
		}
		function O(e, t) {
			var n = b();
			i(e + " in command " + (t || y()) + (n === "unknown" ? "" : " called from " + n));
		}
		function k(e, t, n) {
			e || O(t, n || y());
		}
		function A(e, t, n, r) {
			e in t || O("unknown parameter (" + e + ")" + o(n) + ". possible values: " + Object.keys(t).join(), r || y());
		}
		function j(e, t, n, r) {
			l(e, t) || O("invalid parameter type" + o(n) + ". expected " + t + ", got " + typeof e, r || y());
		}
		function M(e) {
			e();
		}
		function N(e, t, n) {
			e.texture ? f(e.texture._texture.internalformat, t, "unsupported texture format for attachment") : f(e.renderbuffer._renderbuffer.format, n, "unsupported renderbuffer format for attachment");
		}
		var P = 33071, F = 9728, ee = 9984, te = 9985, I = 9986, L = 9987, R = 5120, z = 5121, ne = 5122, B = 5123, re = 5124, V = 5125, H = 5126, ie = 32819, ae = 32820, oe = 33635, U = 34042, W = 36193, G = {};
		G[R] = G[z] = 1, G[ne] = G[B] = G[W] = G[oe] = G[ie] = G[ae] = 2, G[re] = G[V] = G[H] = G[U] = 4;
		function se(e, t) {
			return e === ae || e === ie || e === oe ? 2 : e === U ? 4 : G[e] * t;
		}
		function ce(e) {
			return !(e & e - 1) && !!e;
		}
		function le(e, t, n) {
			var r, i = t.width, o = t.height, s = t.channels;
			a(i > 0 && i <= n.maxTextureSize && o > 0 && o <= n.maxTextureSize, "invalid texture shape"), (e.wrapS !== P || e.wrapT !== P) && a(ce(i) && ce(o), "incompatible wrap mode for texture, both width and height must be power of 2"), t.mipmask === 1 ? i !== 1 && o !== 1 && a(e.minFilter !== ee && e.minFilter !== I && e.minFilter !== te && e.minFilter !== L, "min filter requires mipmap") : (a(ce(i) && ce(o), "texture must be a square power of 2 to support mipmapping"), a(t.mipmask === (i << 1) - 1, "missing or incomplete mipmap data")), t.type === H && (n.extensions.indexOf("oes_texture_float_linear") < 0 && a(e.minFilter === F && e.magFilter === F, "filter not supported, must enable oes_texture_float_linear"), a(!e.genMipmaps, "mipmap generation not supported with float textures"));
			var c = t.images;
			for (r = 0; r < 16; ++r) if (c[r]) {
				var l = i >> r, u = o >> r;
				a(t.mipmask & 1 << r, "missing mipmap data");
				var d = c[r];
				if (a(d.width === l && d.height === u, "invalid shape for mip images"), a(d.format === t.format && d.internalformat === t.internalformat && d.type === t.type, "incompatible type for mip image"), !d.compressed) {
					if (d.data) {
						var f = Math.ceil(se(d.type, s) * l / d.unpackAlignment) * d.unpackAlignment;
						a(d.data.byteLength === f * u, "invalid data for image, buffer size is inconsistent with image format");
					} else d.element || d.copy;
				}
			} else e.genMipmaps || a(!(t.mipmask & 1 << r), "extra mipmap data");
			t.compressed && a(!e.genMipmaps, "mipmap generation for compressed images not supported");
		}
		function ue(e, t, n, r) {
			var i = e.width, o = e.height, s = e.channels;
			a(i > 0 && i <= r.maxTextureSize && o > 0 && o <= r.maxTextureSize, "invalid texture shape"), a(i === o, "cube map must be square"), a(t.wrapS === P && t.wrapT === P, "wrap mode not supported by cube map");
			for (var c = 0; c < n.length; ++c) {
				var l = n[c];
				a(l.width === i && l.height === o, "inconsistent cube map face shape"), t.genMipmaps && (a(!l.compressed, "can not generate mipmap for compressed textures"), a(l.mipmask === 1, "can not specify mipmaps and generate mipmaps"));
				for (var u = l.images, d = 0; d < 16; ++d) {
					var f = u[d];
					if (f) {
						var p = i >> d, m = o >> d;
						a(l.mipmask & 1 << d, "missing mipmap data"), a(f.width === p && f.height === m, "invalid shape for mip images"), a(f.format === e.format && f.internalformat === e.internalformat && f.type === e.type, "incompatible type for mip image"), f.compressed || (f.data ? a(f.data.byteLength === p * m * Math.max(se(f.type, s), f.unpackAlignment), "invalid data for image, buffer size is inconsistent with image format") : f.element || f.copy);
					}
				}
			}
		}
		var K = t(a, {
			optional: M,
			raise: i,
			commandRaise: O,
			command: k,
			parameter: s,
			commandParameter: A,
			constructor: m,
			type: u,
			commandType: j,
			isTypedArray: c,
			nni: d,
			oneOf: f,
			shaderError: w,
			linkError: T,
			callSite: b,
			saveCommandRef: E,
			saveDrawInfo: D,
			framebufferFormat: N,
			guessCommand: y,
			texture2D: le,
			textureCube: ue
		}), de = 0, fe = 0, pe = 5, q = 6;
		function me(e, t) {
			this.id = de++, this.type = e, this.data = t;
		}
		function he(e) {
			return e.replace(/\\/g, "\\\\").replace(/"/g, "\\\"");
		}
		function ge(e) {
			if (e.length === 0) return [];
			var t = e.charAt(0), n = e.charAt(e.length - 1);
			if (e.length > 1 && t === n && (t === "\"" || t === "'")) return ["\"" + he(e.substr(1, e.length - 2)) + "\""];
			var r = /\[(false|true|null|\d+|'[^']*'|"[^"]*")\]/.exec(e);
			if (r) return ge(e.substr(0, r.index)).concat(ge(r[1])).concat(ge(e.substr(r.index + r[0].length)));
			var i = e.split(".");
			if (i.length === 1) return ["\"" + he(e) + "\""];
			for (var a = [], o = 0; o < i.length; ++o) a = a.concat(ge(i[o]));
			return a;
		}
		function _e(e) {
			return "[" + ge(e).join("][") + "]";
		}
		function ve(e, t) {
			return new me(e, _e(t + ""));
		}
		function J(e) {
			return typeof e == "function" && !e._reglType || e instanceof me;
		}
		function ye(e, t) {
			if (typeof e == "function") return new me(fe, e);
			if (typeof e == "number" || typeof e == "boolean") return new me(pe, e);
			if (Array.isArray(e)) return new me(q, e.map(function(e, n) {
				return ye(e, t + "[" + n + "]");
			}));
			if (e instanceof me) return e;
			K(!1, "invalid option type in uniform " + t);
		}
		var be = {
			DynamicVariable: me,
			define: ve,
			isDynamic: J,
			unbox: ye,
			accessor: _e
		}, xe = {
			next: typeof requestAnimationFrame == "function" ? function(e) {
				return requestAnimationFrame(e);
			} : function(e) {
				return setTimeout(e, 16);
			},
			cancel: typeof cancelAnimationFrame == "function" ? function(e) {
				return cancelAnimationFrame(e);
			} : clearTimeout
		}, Se = typeof performance < "u" && performance.now ? function() {
			return performance.now();
		} : function() {
			return +/* @__PURE__ */ new Date();
		};
		function Ce() {
			var e = { "": 0 }, t = [""];
			return {
				id: function(n) {
					var r = e[n];
					return r || (r = e[n] = t.length, t.push(n), r);
				},
				str: function(e) {
					return t[e];
				}
			};
		}
		function we(e, n, r) {
			var i = document.createElement("canvas");
			t(i.style, {
				border: 0,
				margin: 0,
				padding: 0,
				top: 0,
				left: 0,
				width: "100%",
				height: "100%"
			}), e.appendChild(i), e === document.body && (i.style.position = "absolute", t(e.style, {
				margin: 0,
				padding: 0
			}));
			function a() {
				var t = window.innerWidth, n = window.innerHeight;
				if (e !== document.body) {
					var a = i.getBoundingClientRect();
					t = a.right - a.left, n = a.bottom - a.top;
				}
				i.width = r * t, i.height = r * n;
			}
			var o;
			e !== document.body && typeof ResizeObserver == "function" ? (o = new ResizeObserver(function() {
				setTimeout(a);
			}), o.observe(e)) : window.addEventListener("resize", a, !1);
			function s() {
				o ? o.disconnect() : window.removeEventListener("resize", a), e.removeChild(i);
			}
			return a(), {
				canvas: i,
				onDestroy: s
			};
		}
		function Te(e, t) {
			function n(n) {
				try {
					return e.getContext(n, t);
				} catch {
					return null;
				}
			}
			return n("webgl") || n("experimental-webgl") || n("webgl-experimental");
		}
		function Ee(e) {
			return typeof e.nodeName == "string" && typeof e.appendChild == "function" && typeof e.getBoundingClientRect == "function";
		}
		function De(e) {
			return typeof e.drawArrays == "function" || typeof e.drawElements == "function";
		}
		function Oe(e) {
			return typeof e == "string" ? e.split() : (K(Array.isArray(e), "invalid extension array"), e);
		}
		function Y(e) {
			return typeof e == "string" ? (K(typeof document < "u", "not supported outside of DOM"), document.querySelector(e)) : e;
		}
		function ke(e) {
			var t = e || {}, n, r, i, a, o = {}, s = [], c = [], l = typeof window > "u" ? 1 : window.devicePixelRatio, u = !1, d = function(e) {
				e && K.raise(e);
			}, f = function() {};
			if (typeof t == "string" ? (K(typeof document < "u", "selector queries only supported in DOM environments"), n = document.querySelector(t), K(n, "invalid query string for element")) : typeof t == "object" ? Ee(t) ? n = t : De(t) ? (a = t, i = a.canvas) : (K.constructor(t), "gl" in t ? a = t.gl : "canvas" in t ? i = Y(t.canvas) : "container" in t && (r = Y(t.container)), "attributes" in t && (o = t.attributes, K.type(o, "object", "invalid context attributes")), "extensions" in t && (s = Oe(t.extensions)), "optionalExtensions" in t && (c = Oe(t.optionalExtensions)), "onDone" in t && (K.type(t.onDone, "function", "invalid or missing onDone callback"), d = t.onDone), "profile" in t && (u = !!t.profile), "pixelRatio" in t && (l = +t.pixelRatio, K(l > 0, "invalid pixel ratio"))) : K.raise("invalid arguments to regl"), n && (n.nodeName.toLowerCase() === "canvas" ? i = n : r = n), !a) {
				if (!i) {
					K(typeof document < "u", "must manually specify webgl context outside of DOM environments");
					var p = we(r || document.body, d, l);
					if (!p) return null;
					i = p.canvas, f = p.onDestroy;
				}
				o.premultipliedAlpha === void 0 && (o.premultipliedAlpha = !0), a = Te(i, o);
			}
			return a ? {
				gl: a,
				canvas: i,
				container: r,
				extensions: s,
				optionalExtensions: c,
				pixelRatio: l,
				profile: u,
				onDone: d,
				onDestroy: f
			} : (f(), d("webgl not supported, try upgrading your browser or graphics drivers http://get.webgl.org"), null);
		}
		function Ae(e, t) {
			var n = {};
			function r(t) {
				K.type(t, "string", "extension name must be string");
				var r = t.toLowerCase(), i;
				try {
					i = n[r] = e.getExtension(r);
				} catch {}
				return !!i;
			}
			for (var i = 0; i < t.extensions.length; ++i) {
				var a = t.extensions[i];
				if (!r(a)) return t.onDestroy(), t.onDone("\"" + a + "\" extension is not supported by the current WebGL context, try upgrading your system or a different browser"), null;
			}
			return t.optionalExtensions.forEach(r), {
				extensions: n,
				restore: function() {
					Object.keys(n).forEach(function(e) {
						if (n[e] && !r(e)) throw Error("(regl): error restoring extension " + e);
					});
				}
			};
		}
		function je(e, t) {
			for (var n = Array(e), r = 0; r < e; ++r) n[r] = t(r);
			return n;
		}
		var Me = 5120, Ne = 5121, Pe = 5122, Fe = 5123, Ie = 5124, Le = 5125, Re = 5126;
		function ze(e) {
			for (var t = 16; t <= 1 << 28; t *= 16) if (e <= t) return t;
			return 0;
		}
		function Be(e) {
			var t = (e > 65535) << 4, n;
			return e >>>= t, n = (e > 255) << 3, e >>>= n, t |= n, n = (e > 15) << 2, e >>>= n, t |= n, n = (e > 3) << 1, e >>>= n, t |= n, t | e >> 1;
		}
		function X() {
			var e = je(8, function() {
				return [];
			});
			function t(t) {
				var n = ze(t), r = e[Be(n) >> 2];
				return r.length > 0 ? r.pop() : new ArrayBuffer(n);
			}
			function n(t) {
				e[Be(t.byteLength) >> 2].push(t);
			}
			function r(e, n) {
				var r = null;
				switch (e) {
					case Me:
						r = new Int8Array(t(n), 0, n);
						break;
					case Ne:
						r = new Uint8Array(t(n), 0, n);
						break;
					case Pe:
						r = new Int16Array(t(2 * n), 0, n);
						break;
					case Fe:
						r = new Uint16Array(t(2 * n), 0, n);
						break;
					case Ie:
						r = new Int32Array(t(4 * n), 0, n);
						break;
					case Le:
						r = new Uint32Array(t(4 * n), 0, n);
						break;
					case Re:
						r = new Float32Array(t(4 * n), 0, n);
						break;
					default: return null;
				}
				return r.length === n ? r : r.subarray(0, n);
			}
			function i(e) {
				n(e.buffer);
			}
			return {
				alloc: t,
				free: n,
				allocType: r,
				freeType: i
			};
		}
		var Z = X();
		Z.zero = X();
		var Ve = 3408, He = 3410, Ue = 3411, We = 3412, Ge = 3413, Ke = 3414, qe = 3415, Je = 33901, Ye = 33902, Xe = 3379, Ze = 3386, Qe = 34921, $e = 36347, et = 36348, tt = 35661, nt = 35660, rt = 34930, it = 36349, at = 34076, ot = 34024, st = 7936, ct = 7937, lt = 7938, ut = 35724, dt = 34047, ft = 36063, pt = 34852, mt = 3553, ht = 34067, gt = 34069, _t = 33984, vt = 6408, yt = 5126, bt = 5121, xt = 36160, St = 36053, Ct = 36064, wt = 16384, Tt = function(e, t) {
			var n = 1;
			t.ext_texture_filter_anisotropic && (n = e.getParameter(dt));
			var r = 1, i = 1;
			t.webgl_draw_buffers && (r = e.getParameter(pt), i = e.getParameter(ft));
			var a = !!t.oes_texture_float;
			if (a) {
				var o = e.createTexture();
				e.bindTexture(mt, o), e.texImage2D(mt, 0, vt, 1, 1, 0, vt, yt, null);
				var s = e.createFramebuffer();
				if (e.bindFramebuffer(xt, s), e.framebufferTexture2D(xt, Ct, mt, o, 0), e.bindTexture(mt, null), e.checkFramebufferStatus(xt) !== St) a = !1;
				else {
					e.viewport(0, 0, 1, 1), e.clearColor(1, 0, 0, 1), e.clear(wt);
					var c = Z.allocType(yt, 4);
					e.readPixels(0, 0, 1, 1, vt, yt, c), e.getError() ? a = !1 : (e.deleteFramebuffer(s), e.deleteTexture(o), a = c[0] === 1), Z.freeType(c);
				}
			}
			var l = typeof navigator < "u" && (/MSIE/.test(navigator.userAgent) || /Trident\//.test(navigator.appVersion) || /Edge/.test(navigator.userAgent)), u = !0;
			if (!l) {
				var d = e.createTexture(), f = Z.allocType(bt, 36);
				e.activeTexture(_t), e.bindTexture(ht, d), e.texImage2D(gt, 0, vt, 3, 3, 0, vt, bt, f), Z.freeType(f), e.bindTexture(ht, null), e.deleteTexture(d), u = !e.getError();
			}
			return {
				colorBits: [
					e.getParameter(He),
					e.getParameter(Ue),
					e.getParameter(We),
					e.getParameter(Ge)
				],
				depthBits: e.getParameter(Ke),
				stencilBits: e.getParameter(qe),
				subpixelBits: e.getParameter(Ve),
				extensions: Object.keys(t).filter(function(e) {
					return !!t[e];
				}),
				maxAnisotropic: n,
				maxDrawbuffers: r,
				maxColorAttachments: i,
				pointSizeDims: e.getParameter(Je),
				lineWidthDims: e.getParameter(Ye),
				maxViewportDims: e.getParameter(Ze),
				maxCombinedTextureUnits: e.getParameter(tt),
				maxCubeMapSize: e.getParameter(at),
				maxRenderbufferSize: e.getParameter(ot),
				maxTextureUnits: e.getParameter(rt),
				maxTextureSize: e.getParameter(Xe),
				maxAttributes: e.getParameter(Qe),
				maxVertexUniforms: e.getParameter($e),
				maxVertexTextureUnits: e.getParameter(nt),
				maxVaryingVectors: e.getParameter(et),
				maxFragmentUniforms: e.getParameter(it),
				glsl: e.getParameter(ut),
				renderer: e.getParameter(ct),
				vendor: e.getParameter(st),
				version: e.getParameter(lt),
				readFloat: a,
				npotTextureCube: u
			};
		};
		function Et(t) {
			return !!t && typeof t == "object" && Array.isArray(t.shape) && Array.isArray(t.stride) && typeof t.offset == "number" && t.shape.length === t.stride.length && (Array.isArray(t.data) || e(t.data));
		}
		var Dt = function(e) {
			return Object.keys(e).map(function(t) {
				return e[t];
			});
		}, Ot = {
			shape: Pt,
			flatten: Nt
		};
		function kt(e, t, n) {
			for (var r = 0; r < t; ++r) n[r] = e[r];
		}
		function At(e, t, n, r) {
			for (var i = 0, a = 0; a < t; ++a) for (var o = e[a], s = 0; s < n; ++s) r[i++] = o[s];
		}
		function jt(e, t, n, r, i, a) {
			for (var o = a, s = 0; s < t; ++s) for (var c = e[s], l = 0; l < n; ++l) for (var u = c[l], d = 0; d < r; ++d) i[o++] = u[d];
		}
		function Mt(e, t, n, r, i) {
			for (var a = 1, o = n + 1; o < t.length; ++o) a *= t[o];
			var s = t[n];
			if (t.length - n === 4) {
				var c = t[n + 1], l = t[n + 2], u = t[n + 3];
				for (o = 0; o < s; ++o) jt(e[o], c, l, u, r, i), i += a;
			} else for (o = 0; o < s; ++o) Mt(e[o], t, n + 1, r, i), i += a;
		}
		function Nt(e, t, n, r) {
			var i = 1;
			if (t.length) for (var a = 0; a < t.length; ++a) i *= t[a];
			else i = 0;
			var o = r || Z.allocType(n, i);
			switch (t.length) {
				case 0: break;
				case 1:
					kt(e, t[0], o);
					break;
				case 2:
					At(e, t[0], t[1], o);
					break;
				case 3:
					jt(e, t[0], t[1], t[2], o, 0);
					break;
				default: Mt(e, t, 0, o, 0);
			}
			return o;
		}
		function Pt(e) {
			for (var t = [], n = e; n.length; n = n[0]) t.push(n.length);
			return t;
		}
		var Ft = {
			"[object Int8Array]": 5120,
			"[object Int16Array]": 5122,
			"[object Int32Array]": 5124,
			"[object Uint8Array]": 5121,
			"[object Uint8ClampedArray]": 5121,
			"[object Uint16Array]": 5123,
			"[object Uint32Array]": 5125,
			"[object Float32Array]": 5126,
			"[object Float64Array]": 5121,
			"[object ArrayBuffer]": 5121
		}, It = {
			int8: 5120,
			int16: 5122,
			int32: 5124,
			uint8: 5121,
			uint16: 5123,
			uint32: 5125,
			float: 5126,
			float32: 5126
		}, Lt = {
			dynamic: 35048,
			stream: 35040,
			static: 35044
		}, Rt = Ot.flatten, zt = Ot.shape, Bt = 35044, Vt = 35040, Ht = 5121, Ut = 5126, Wt = [];
		Wt[5120] = 1, Wt[5122] = 2, Wt[5124] = 4, Wt[5121] = 1, Wt[5123] = 2, Wt[5125] = 4, Wt[5126] = 4;
		function Gt(e) {
			return Ft[Object.prototype.toString.call(e)] | 0;
		}
		function Kt(e, t) {
			for (var n = 0; n < t.length; ++n) e[n] = t[n];
		}
		function qt(e, t, n, r, i, a, o) {
			for (var s = 0, c = 0; c < n; ++c) for (var l = 0; l < r; ++l) e[s++] = t[i * c + a * l + o];
		}
		function Jt(t, n, r, i) {
			var a = 0, o = {};
			function s(e) {
				this.id = a++, this.buffer = t.createBuffer(), this.type = e, this.usage = Bt, this.byteLength = 0, this.dimension = 1, this.dtype = Ht, this.persistentData = null, r.profile && (this.stats = { size: 0 });
			}
			s.prototype.bind = function() {
				t.bindBuffer(this.type, this.buffer);
			}, s.prototype.destroy = function() {
				p(this);
			};
			var c = [];
			function l(e, t) {
				var n = c.pop();
				return n || (n = new s(e)), n.bind(), f(n, t, Vt, 0, 1, !1), n;
			}
			function u(e) {
				c.push(e);
			}
			function d(e, n, r) {
				e.byteLength = n.byteLength, t.bufferData(e.type, n, r);
			}
			function f(t, n, r, i, a, o) {
				var s;
				if (t.usage = r, Array.isArray(n)) {
					if (t.dtype = i || Ut, n.length > 0) {
						var c;
						if (Array.isArray(n[0])) {
							s = zt(n);
							for (var l = 1, u = 1; u < s.length; ++u) l *= s[u];
							t.dimension = l, c = Rt(n, s, t.dtype), d(t, c, r), o ? t.persistentData = c : Z.freeType(c);
						} else if (typeof n[0] == "number") {
							t.dimension = a;
							var f = Z.allocType(t.dtype, n.length);
							Kt(f, n), d(t, f, r), o ? t.persistentData = f : Z.freeType(f);
						} else e(n[0]) ? (t.dimension = n[0].length, t.dtype = i || Gt(n[0]) || Ut, c = Rt(n, [n.length, n[0].length], t.dtype), d(t, c, r), o ? t.persistentData = c : Z.freeType(c)) : K.raise("invalid buffer data");
					}
				} else if (e(n)) t.dtype = i || Gt(n), t.dimension = a, d(t, n, r), o && (t.persistentData = new Uint8Array(new Uint8Array(n.buffer)));
				else if (Et(n)) {
					s = n.shape;
					var p = n.stride, m = n.offset, h = 0, g = 0, _ = 0, v = 0;
					s.length === 1 ? (h = s[0], g = 1, _ = p[0], v = 0) : s.length === 2 ? (h = s[0], g = s[1], _ = p[0], v = p[1]) : K.raise("invalid shape"), t.dtype = i || Gt(n.data) || Ut, t.dimension = g;
					var y = Z.allocType(t.dtype, h * g);
					qt(y, n.data, h, g, _, v, m), d(t, y, r), o ? t.persistentData = y : Z.freeType(y);
				} else n instanceof ArrayBuffer ? (t.dtype = Ht, t.dimension = a, d(t, n, r), o && (t.persistentData = new Uint8Array(new Uint8Array(n)))) : K.raise("invalid buffer data");
			}
			function p(e) {
				n.bufferCount--, i(e);
				var r = e.buffer;
				K(r, "buffer must not be deleted already"), t.deleteBuffer(r), e.buffer = null, delete o[e.id];
			}
			function m(i, a, c, l) {
				n.bufferCount++;
				var u = new s(a);
				o[u.id] = u;
				function d(n) {
					var i = Bt, a = null, o = 0, s = 0, c = 1;
					return Array.isArray(n) || e(n) || Et(n) || n instanceof ArrayBuffer ? a = n : typeof n == "number" ? o = n | 0 : n && (K.type(n, "object", "buffer arguments must be an object, a number or an array"), "data" in n && (K(a === null || Array.isArray(a) || e(a) || Et(a), "invalid data for buffer"), a = n.data), "usage" in n && (K.parameter(n.usage, Lt, "invalid buffer usage"), i = Lt[n.usage]), "type" in n && (K.parameter(n.type, It, "invalid buffer type"), s = It[n.type]), "dimension" in n && (K.type(n.dimension, "number", "invalid dimension"), c = n.dimension | 0), "length" in n && (K.nni(o, "buffer length must be a nonnegative integer"), o = n.length | 0)), u.bind(), a ? f(u, a, i, s, c, l) : (o && t.bufferData(u.type, o, i), u.dtype = s || Ht, u.usage = i, u.dimension = c, u.byteLength = o), r.profile && (u.stats.size = u.byteLength * Wt[u.dtype]), d;
				}
				function m(e, n) {
					K(n + e.byteLength <= u.byteLength, "invalid buffer subdata call, buffer is too small.  Can't write data of size " + e.byteLength + " starting from offset " + n + " to a buffer of size " + u.byteLength), t.bufferSubData(u.type, n, e);
				}
				function h(t, n) {
					var r = (n || 0) | 0, i;
					if (u.bind(), e(t) || t instanceof ArrayBuffer) m(t, r);
					else if (Array.isArray(t)) {
						if (t.length > 0) {
							if (typeof t[0] == "number") {
								var a = Z.allocType(u.dtype, t.length);
								Kt(a, t), m(a, r), Z.freeType(a);
							} else if (Array.isArray(t[0]) || e(t[0])) {
								i = zt(t);
								var o = Rt(t, i, u.dtype);
								m(o, r), Z.freeType(o);
							} else K.raise("invalid buffer data");
						}
					} else if (Et(t)) {
						i = t.shape;
						var s = t.stride, c = 0, l = 0, f = 0, p = 0;
						i.length === 1 ? (c = i[0], l = 1, f = s[0], p = 0) : i.length === 2 ? (c = i[0], l = i[1], f = s[0], p = s[1]) : K.raise("invalid shape");
						var h = Array.isArray(t.data) ? u.dtype : Gt(t.data), g = Z.allocType(h, c * l);
						qt(g, t.data, c, l, f, p, t.offset), m(g, r), Z.freeType(g);
					} else K.raise("invalid data for buffer subdata");
					return d;
				}
				return c || d(i), d._reglType = "buffer", d._buffer = u, d.subdata = h, r.profile && (d.stats = u.stats), d.destroy = function() {
					p(u);
				}, d;
			}
			function h() {
				Dt(o).forEach(function(e) {
					e.buffer = t.createBuffer(), t.bindBuffer(e.type, e.buffer), t.bufferData(e.type, e.persistentData || e.byteLength, e.usage);
				});
			}
			return r.profile && (n.getTotalBufferSize = function() {
				var e = 0;
				return Object.keys(o).forEach(function(t) {
					e += o[t].stats.size;
				}), e;
			}), {
				create: m,
				createStream: l,
				destroyStream: u,
				clear: function() {
					Dt(o).forEach(p), c.forEach(p);
				},
				getBuffer: function(e) {
					return e && e._buffer instanceof s ? e._buffer : null;
				},
				restore: h,
				_initBuffer: f
			};
		}
		var Yt = {
			points: 0,
			point: 0,
			lines: 1,
			line: 1,
			triangles: 4,
			triangle: 4,
			"line loop": 2,
			"line strip": 3,
			"triangle strip": 5,
			"triangle fan": 6
		}, Xt = 0, Zt = 1, Qt = 4, $t = 5120, en = 5121, tn = 5122, nn = 5123, rn = 5124, an = 5125, on = 34963, sn = 35040, cn = 35044;
		function ln(t, n, r, i) {
			var a = {}, o = 0, s = {
				uint8: en,
				uint16: nn
			};
			n.oes_element_index_uint && (s.uint32 = an);
			function c(e) {
				this.id = o++, a[this.id] = this, this.buffer = e, this.primType = Qt, this.vertCount = 0, this.type = 0;
			}
			c.prototype.bind = function() {
				this.buffer.bind();
			};
			var l = [];
			function u(e) {
				var t = l.pop();
				return t || (t = new c(r.create(null, on, !0, !1)._buffer)), f(t, e, sn, -1, -1, 0, 0), t;
			}
			function d(e) {
				l.push(e);
			}
			function f(i, a, o, s, c, l, u) {
				i.buffer.bind();
				var d;
				if (a) {
					var f = u;
					!u && (!e(a) || Et(a) && !e(a.data)) && (f = n.oes_element_index_uint ? an : nn), r._initBuffer(i.buffer, a, o, f, 3);
				} else t.bufferData(on, l, o), i.buffer.dtype = d || en, i.buffer.usage = o, i.buffer.dimension = 3, i.buffer.byteLength = l;
				if (d = u, !u) {
					switch (i.buffer.dtype) {
						case en:
						case $t:
							d = en;
							break;
						case nn:
						case tn:
							d = nn;
							break;
						case an:
						case rn:
							d = an;
							break;
						default: K.raise("unsupported type for element array");
					}
					i.buffer.dtype = d;
				}
				i.type = d, K(d !== an || !!n.oes_element_index_uint, "32 bit element buffers not supported, enable oes_element_index_uint first");
				var p = c;
				p < 0 && (p = i.buffer.byteLength, d === nn ? p >>= 1 : d === an && (p >>= 2)), i.vertCount = p;
				var m = s;
				if (s < 0) {
					m = Qt;
					var h = i.buffer.dimension;
					h === 1 && (m = Xt), h === 2 && (m = Zt), h === 3 && (m = Qt);
				}
				i.primType = m;
			}
			function p(e) {
				i.elementsCount--, K(e.buffer !== null, "must not double destroy elements"), delete a[e.id], e.buffer.destroy(), e.buffer = null;
			}
			function m(t, n) {
				var a = r.create(null, on, !0), o = new c(a._buffer);
				i.elementsCount++;
				function l(t) {
					if (!t) a(), o.primType = Qt, o.vertCount = 0, o.type = en;
					else if (typeof t == "number") a(t), o.primType = Qt, o.vertCount = t | 0, o.type = en;
					else {
						var n = null, r = cn, i = -1, c = -1, u = 0, d = 0;
						Array.isArray(t) || e(t) || Et(t) ? n = t : (K.type(t, "object", "invalid arguments for elements"), "data" in t && (n = t.data, K(Array.isArray(n) || e(n) || Et(n), "invalid data for element buffer")), "usage" in t && (K.parameter(t.usage, Lt, "invalid element buffer usage"), r = Lt[t.usage]), "primitive" in t && (K.parameter(t.primitive, Yt, "invalid element buffer primitive"), i = Yt[t.primitive]), "count" in t && (K(typeof t.count == "number" && t.count >= 0, "invalid vertex count for elements"), c = t.count | 0), "type" in t && (K.parameter(t.type, s, "invalid buffer type"), d = s[t.type]), "length" in t ? u = t.length | 0 : (u = c, d === nn || d === tn ? u *= 2 : (d === an || d === rn) && (u *= 4))), f(o, n, r, i, c, u, d);
					}
					return l;
				}
				return l(t), l._reglType = "elements", l._elements = o, l.subdata = function(e, t) {
					return a.subdata(e, t), l;
				}, l.destroy = function() {
					p(o);
				}, l;
			}
			return {
				create: m,
				createStream: u,
				destroyStream: d,
				getElements: function(e) {
					return typeof e == "function" && e._elements instanceof c ? e._elements : null;
				},
				clear: function() {
					Dt(a).forEach(p);
				}
			};
		}
		var un = /* @__PURE__ */ new Float32Array(1), dn = new Uint32Array(un.buffer), fn = 5123;
		function pn(e) {
			for (var t = Z.allocType(fn, e.length), n = 0; n < e.length; ++n) if (isNaN(e[n])) t[n] = 65535;
			else if (e[n] === Infinity) t[n] = 31744;
			else if (e[n] === -Infinity) t[n] = 64512;
			else {
				un[0] = e[n];
				var r = dn[0], i = r >>> 31 << 15, a = (r << 1 >>> 24) - 127, o = r >> 13 & 1023;
				if (a < -24) t[n] = i;
				else if (a < -14) {
					var s = -14 - a;
					t[n] = i + (o + 1024 >> s);
				} else a > 15 ? t[n] = i + 31744 : t[n] = i + (a + 15 << 10) + o;
			}
			return t;
		}
		function mn(t) {
			return Array.isArray(t) || e(t);
		}
		var hn = function(e) {
			return !(e & e - 1) && !!e;
		}, gn = 34467, _n = 3553, vn = 34067, yn = 34069, bn = 6408, xn = 6406, Sn = 6407, Cn = 6409, wn = 6410, Tn = 32854, En = 32855, Dn = 36194, On = 32819, kn = 32820, An = 33635, jn = 34042, Mn = 6402, Nn = 34041, Pn = 35904, Fn = 35906, In = 36193, Ln = 33776, Rn = 33777, zn = 33778, Bn = 33779, Vn = 35986, Hn = 35987, Un = 34798, Wn = 35840, Gn = 35841, Kn = 35842, qn = 35843, Jn = 36196, Yn = 5121, Xn = 5123, Zn = 5125, Qn = 5126, $n = 10242, er = 10243, tr = 10497, nr = 33071, rr = 33648, ir = 10240, ar = 10241, or = 9728, sr = 9729, cr = 9984, lr = 9985, ur = 9986, dr = 9987, fr = 33170, pr = 4352, mr = 4353, hr = 4354, gr = 34046, _r = 3317, vr = 37440, yr = 37441, Q = 37443, br = 37444, xr = 33984, Sr = [
			cr,
			ur,
			lr,
			dr
		], Cr = [
			0,
			Cn,
			wn,
			Sn,
			bn
		], wr = {};
		wr[Cn] = wr[xn] = wr[Mn] = 1, wr[Nn] = wr[wn] = 2, wr[Sn] = wr[Pn] = 3, wr[bn] = wr[Fn] = 4;
		function Tr(e) {
			return "[object " + e + "]";
		}
		var Er = Tr("HTMLCanvasElement"), Dr = Tr("OffscreenCanvas"), Or = Tr("CanvasRenderingContext2D"), kr = Tr("ImageBitmap"), Ar = Tr("HTMLImageElement"), jr = Tr("HTMLVideoElement"), Mr = Object.keys(Ft).concat([
			Er,
			Dr,
			Or,
			kr,
			Ar,
			jr
		]), Nr = [];
		Nr[Yn] = 1, Nr[Qn] = 4, Nr[In] = 2, Nr[Xn] = 2, Nr[Zn] = 4;
		var Pr = [];
		Pr[Tn] = 2, Pr[En] = 2, Pr[Dn] = 2, Pr[Nn] = 4, Pr[Ln] = .5, Pr[Rn] = .5, Pr[zn] = 1, Pr[Bn] = 1, Pr[Vn] = .5, Pr[Hn] = 1, Pr[Un] = 1, Pr[Wn] = .5, Pr[Gn] = .25, Pr[Kn] = .5, Pr[qn] = .25, Pr[Jn] = .5;
		function Fr(e) {
			return Array.isArray(e) && (e.length === 0 || typeof e[0] == "number");
		}
		function Ir(e) {
			return !(!Array.isArray(e) || e.length === 0 || !mn(e[0]));
		}
		function Lr(e) {
			return Object.prototype.toString.call(e);
		}
		function Rr(e) {
			return Lr(e) === Er;
		}
		function zr(e) {
			return Lr(e) === Dr;
		}
		function Br(e) {
			return Lr(e) === Or;
		}
		function Vr(e) {
			return Lr(e) === kr;
		}
		function Hr(e) {
			return Lr(e) === Ar;
		}
		function Ur(e) {
			return Lr(e) === jr;
		}
		function Wr(e) {
			if (!e) return !1;
			var t = Lr(e);
			return Mr.indexOf(t) >= 0 || Fr(e) || Ir(e) || Et(e);
		}
		function Gr(e) {
			return Ft[Object.prototype.toString.call(e)] | 0;
		}
		function Kr(e, t) {
			var n = t.length;
			switch (e.type) {
				case Yn:
				case Xn:
				case Zn:
				case Qn:
					var r = Z.allocType(e.type, n);
					r.set(t), e.data = r;
					break;
				case In:
					e.data = pn(t);
					break;
				default: K.raise("unsupported texture type, must specify a typed array");
			}
		}
		function qr(e, t) {
			return Z.allocType(e.type === In ? Qn : e.type, t);
		}
		function Jr(e, t) {
			e.type === In ? (e.data = pn(t), Z.freeType(t)) : e.data = t;
		}
		function Yr(e, t, n, r, i, a) {
			for (var o = e.width, s = e.height, c = e.channels, l = qr(e, o * s * c), u = 0, d = 0; d < s; ++d) for (var f = 0; f < o; ++f) for (var p = 0; p < c; ++p) l[u++] = t[n * f + r * d + i * p + a];
			Jr(e, l);
		}
		function Xr(e, t, n, r, i, a) {
			var o = Pr[e] === void 0 ? wr[e] * Nr[t] : Pr[e];
			if (a && (o *= 6), i) {
				for (var s = 0, c = n; c >= 1;) s += o * c * c, c /= 2;
				return s;
			}
			return o * n * r;
		}
		function Zr(n, r, i, a, o, s, c) {
			var l = {
				"don't care": pr,
				"dont care": pr,
				nice: hr,
				fast: mr
			}, u = {
				repeat: tr,
				clamp: nr,
				mirror: rr
			}, d = {
				nearest: or,
				linear: sr
			}, f = t({
				mipmap: dr,
				"nearest mipmap nearest": cr,
				"linear mipmap nearest": lr,
				"nearest mipmap linear": ur,
				"linear mipmap linear": dr
			}, d), p = {
				none: 0,
				browser: br
			}, m = {
				uint8: Yn,
				rgba4: On,
				rgb565: An,
				"rgb5 a1": kn
			}, h = {
				alpha: xn,
				luminance: Cn,
				"luminance alpha": wn,
				rgb: Sn,
				rgba: bn,
				rgba4: Tn,
				"rgb5 a1": En,
				rgb565: Dn
			}, g = {};
			r.ext_srgb && (h.srgb = Pn, h.srgba = Fn), r.oes_texture_float && (m.float32 = m.float = Qn), r.oes_texture_half_float && (m.float16 = m["half float"] = In), r.webgl_depth_texture && (t(h, {
				depth: Mn,
				"depth stencil": Nn
			}), t(m, {
				uint16: Xn,
				uint32: Zn,
				"depth stencil": jn
			})), r.webgl_compressed_texture_s3tc && t(g, {
				"rgb s3tc dxt1": Ln,
				"rgba s3tc dxt1": Rn,
				"rgba s3tc dxt3": zn,
				"rgba s3tc dxt5": Bn
			}), r.webgl_compressed_texture_atc && t(g, {
				"rgb atc": Vn,
				"rgba atc explicit alpha": Hn,
				"rgba atc interpolated alpha": Un
			}), r.webgl_compressed_texture_pvrtc && t(g, {
				"rgb pvrtc 4bppv1": Wn,
				"rgb pvrtc 2bppv1": Gn,
				"rgba pvrtc 4bppv1": Kn,
				"rgba pvrtc 2bppv1": qn
			}), r.webgl_compressed_texture_etc1 && (g["rgb etc1"] = Jn);
			var _ = Array.prototype.slice.call(n.getParameter(gn));
			Object.keys(g).forEach(function(e) {
				var t = g[e];
				_.indexOf(t) >= 0 && (h[e] = t);
			});
			var v = Object.keys(h);
			i.textureFormats = v;
			var y = [];
			Object.keys(h).forEach(function(e) {
				var t = h[e];
				y[t] = e;
			});
			var b = [];
			Object.keys(m).forEach(function(e) {
				var t = m[e];
				b[t] = e;
			});
			var x = [];
			Object.keys(d).forEach(function(e) {
				var t = d[e];
				x[t] = e;
			});
			var S = [];
			Object.keys(f).forEach(function(e) {
				var t = f[e];
				S[t] = e;
			});
			var C = [];
			Object.keys(u).forEach(function(e) {
				var t = u[e];
				C[t] = e;
			});
			var w = v.reduce(function(e, t) {
				var n = h[t];
				return e[n] = n === Cn || n === xn || n === Cn || n === wn || n === Mn || n === Nn || r.ext_srgb && (n === Pn || n === Fn) ? n : n === En || t.indexOf("rgba") >= 0 ? bn : Sn, e;
			}, {});
			function T() {
				this.internalformat = bn, this.format = bn, this.type = Yn, this.compressed = !1, this.premultiplyAlpha = !1, this.flipY = !1, this.unpackAlignment = 1, this.colorSpace = br, this.width = 0, this.height = 0, this.channels = 0;
			}
			function E(e, t) {
				e.internalformat = t.internalformat, e.format = t.format, e.type = t.type, e.compressed = t.compressed, e.premultiplyAlpha = t.premultiplyAlpha, e.flipY = t.flipY, e.unpackAlignment = t.unpackAlignment, e.colorSpace = t.colorSpace, e.width = t.width, e.height = t.height, e.channels = t.channels;
			}
			function D(e, t) {
				if (typeof t == "object" && t) {
					if ("premultiplyAlpha" in t && (K.type(t.premultiplyAlpha, "boolean", "invalid premultiplyAlpha"), e.premultiplyAlpha = t.premultiplyAlpha), "flipY" in t && (K.type(t.flipY, "boolean", "invalid texture flip"), e.flipY = t.flipY), "alignment" in t && (K.oneOf(t.alignment, [
						1,
						2,
						4,
						8
					], "invalid texture unpack alignment"), e.unpackAlignment = t.alignment), "colorSpace" in t && (K.parameter(t.colorSpace, p, "invalid colorSpace"), e.colorSpace = p[t.colorSpace]), "type" in t) {
						var n = t.type;
						K(r.oes_texture_float || n !== "float" && n !== "float32", "you must enable the OES_texture_float extension in order to use floating point textures."), K(r.oes_texture_half_float || n !== "half float" && n !== "float16", "you must enable the OES_texture_half_float extension in order to use 16-bit floating point textures."), K(r.webgl_depth_texture || n !== "uint16" && n !== "uint32" && n !== "depth stencil", "you must enable the WEBGL_depth_texture extension in order to use depth/stencil textures."), K.parameter(n, m, "invalid texture type"), e.type = m[n];
					}
					var a = e.width, o = e.height, s = e.channels, c = !1;
					"shape" in t ? (K(Array.isArray(t.shape) && t.shape.length >= 2, "shape must be an array"), a = t.shape[0], o = t.shape[1], t.shape.length === 3 && (s = t.shape[2], K(s > 0 && s <= 4, "invalid number of channels"), c = !0), K(a >= 0 && a <= i.maxTextureSize, "invalid width"), K(o >= 0 && o <= i.maxTextureSize, "invalid height")) : ("radius" in t && (a = o = t.radius, K(a >= 0 && a <= i.maxTextureSize, "invalid radius")), "width" in t && (a = t.width, K(a >= 0 && a <= i.maxTextureSize, "invalid width")), "height" in t && (o = t.height, K(o >= 0 && o <= i.maxTextureSize, "invalid height")), "channels" in t && (s = t.channels, K(s > 0 && s <= 4, "invalid number of channels"), c = !0)), e.width = a | 0, e.height = o | 0, e.channels = s | 0;
					var l = !1;
					if ("format" in t) {
						var u = t.format;
						K(r.webgl_depth_texture || u !== "depth" && u !== "depth stencil", "you must enable the WEBGL_depth_texture extension in order to use depth/stencil textures."), K.parameter(u, h, "invalid texture format"), e.format = w[e.internalformat = h[u]], u in m && ("type" in t || (e.type = m[u])), u in g && (e.compressed = !0), l = !0;
					}
					!c && l ? e.channels = wr[e.format] : c && !l ? e.channels !== Cr[e.format] && (e.format = e.internalformat = Cr[e.channels]) : l && c && K(e.channels === wr[e.format], "number of channels inconsistent with specified format");
				}
			}
			function O(e) {
				n.pixelStorei(vr, e.flipY), n.pixelStorei(yr, e.premultiplyAlpha), n.pixelStorei(Q, e.colorSpace), n.pixelStorei(_r, e.unpackAlignment);
			}
			function k() {
				T.call(this), this.xOffset = 0, this.yOffset = 0, this.data = null, this.needsFree = !1, this.element = null, this.needsCopy = !1;
			}
			function A(t, n) {
				var r = null;
				if (Wr(n) ? r = n : n && (K.type(n, "object", "invalid pixel data type"), D(t, n), "x" in n && (t.xOffset = n.x | 0), "y" in n && (t.yOffset = n.y | 0), Wr(n.data) && (r = n.data)), K(!t.compressed || r instanceof Uint8Array, "compressed texture data must be stored in a uint8array"), n.copy) {
					K(!r, "can not specify copy and data field for the same texture");
					var a = o.viewportWidth, s = o.viewportHeight;
					t.width = t.width || a - t.xOffset, t.height = t.height || s - t.yOffset, t.needsCopy = !0, K(t.xOffset >= 0 && t.xOffset < a && t.yOffset >= 0 && t.yOffset < s && t.width > 0 && t.width <= a && t.height > 0 && t.height <= s, "copy texture read out of bounds");
				} else if (!r) t.width = t.width || 1, t.height = t.height || 1, t.channels = t.channels || 4;
				else if (e(r)) t.channels = t.channels || 4, t.data = r, !("type" in n) && t.type === Yn && (t.type = Gr(r));
				else if (Fr(r)) t.channels = t.channels || 4, Kr(t, r), t.alignment = 1, t.needsFree = !0;
				else if (Et(r)) {
					var c = r.data;
					!Array.isArray(c) && t.type === Yn && (t.type = Gr(c));
					var l = r.shape, u = r.stride, d, f, p, m, h, g;
					l.length === 3 ? (p = l[2], g = u[2]) : (K(l.length === 2, "invalid ndarray pixel data, must be 2 or 3D"), p = 1, g = 1), d = l[0], f = l[1], m = u[0], h = u[1], t.alignment = 1, t.width = d, t.height = f, t.channels = p, t.format = t.internalformat = Cr[p], t.needsFree = !0, Yr(t, c, m, h, g, r.offset);
				} else if (Rr(r) || zr(r) || Br(r)) t.element = Rr(r) || zr(r) ? r : r.canvas, t.width = t.element.width, t.height = t.element.height, t.channels = 4;
				else if (Vr(r)) t.element = r, t.width = r.width, t.height = r.height, t.channels = 4;
				else if (Hr(r)) t.element = r, t.width = r.naturalWidth, t.height = r.naturalHeight, t.channels = 4;
				else if (Ur(r)) t.element = r, t.width = r.videoWidth, t.height = r.videoHeight, t.channels = 4;
				else if (Ir(r)) {
					var _ = t.width || r[0].length, v = t.height || r.length, y = t.channels;
					y = mn(r[0][0]) ? y || r[0][0].length : y || 1;
					for (var b = Ot.shape(r), x = 1, S = 0; S < b.length; ++S) x *= b[S];
					var C = qr(t, x);
					Ot.flatten(r, b, "", C), Jr(t, C), t.alignment = 1, t.width = _, t.height = v, t.channels = y, t.format = t.internalformat = Cr[y], t.needsFree = !0;
				}
				t.type === Qn ? K(i.extensions.indexOf("oes_texture_float") >= 0, "oes_texture_float extension not enabled") : t.type === In && K(i.extensions.indexOf("oes_texture_half_float") >= 0, "oes_texture_half_float extension not enabled");
			}
			function j(e, t, r) {
				var i = e.element, o = e.data, s = e.internalformat, c = e.format, l = e.type, u = e.width, d = e.height;
				O(e), i ? n.texImage2D(t, r, c, c, l, i) : e.compressed ? n.compressedTexImage2D(t, r, s, u, d, 0, o) : e.needsCopy ? (a(), n.copyTexImage2D(t, r, c, e.xOffset, e.yOffset, u, d, 0)) : n.texImage2D(t, r, c, u, d, 0, c, l, o || null);
			}
			function M(e, t, r, i, o) {
				var s = e.element, c = e.data, l = e.internalformat, u = e.format, d = e.type, f = e.width, p = e.height;
				O(e), s ? n.texSubImage2D(t, o, r, i, u, d, s) : e.compressed ? n.compressedTexSubImage2D(t, o, r, i, l, f, p, c) : e.needsCopy ? (a(), n.copyTexSubImage2D(t, o, r, i, e.xOffset, e.yOffset, f, p)) : n.texSubImage2D(t, o, r, i, f, p, u, d, c);
			}
			var N = [];
			function P() {
				return N.pop() || new k();
			}
			function F(e) {
				e.needsFree && Z.freeType(e.data), k.call(e), N.push(e);
			}
			function ee() {
				T.call(this), this.genMipmaps = !1, this.mipmapHint = pr, this.mipmask = 0, this.images = Array(16);
			}
			function te(e, t, n) {
				var r = e.images[0] = P();
				e.mipmask = 1, r.width = e.width = t, r.height = e.height = n, r.channels = e.channels = 4;
			}
			function I(e, t) {
				var n = null;
				if (Wr(t)) n = e.images[0] = P(), E(n, e), A(n, t), e.mipmask = 1;
				else if (D(e, t), Array.isArray(t.mipmap)) for (var r = t.mipmap, i = 0; i < r.length; ++i) n = e.images[i] = P(), E(n, e), n.width >>= i, n.height >>= i, A(n, r[i]), e.mipmask |= 1 << i;
				else n = e.images[0] = P(), E(n, e), A(n, t), e.mipmask = 1;
				E(e, e.images[0]), e.compressed && (e.internalformat === Ln || e.internalformat === Rn || e.internalformat === zn || e.internalformat === Bn) && K(e.width % 4 == 0 && e.height % 4 == 0, "for compressed texture formats, mipmap level 0 must have width and height that are a multiple of 4");
			}
			function L(e, t) {
				for (var n = e.images, r = 0; r < n.length; ++r) {
					if (!n[r]) return;
					j(n[r], t, r);
				}
			}
			var R = [];
			function z() {
				var e = R.pop() || new ee();
				T.call(e), e.mipmask = 0;
				for (var t = 0; t < 16; ++t) e.images[t] = null;
				return e;
			}
			function ne(e) {
				for (var t = e.images, n = 0; n < t.length; ++n) t[n] && F(t[n]), t[n] = null;
				R.push(e);
			}
			function B() {
				this.minFilter = or, this.magFilter = or, this.wrapS = nr, this.wrapT = nr, this.anisotropic = 1, this.genMipmaps = !1, this.mipmapHint = pr;
			}
			function re(e, t) {
				if ("min" in t) {
					var n = t.min;
					K.parameter(n, f), e.minFilter = f[n], Sr.indexOf(e.minFilter) >= 0 && !("faces" in t) && (e.genMipmaps = !0);
				}
				if ("mag" in t) {
					var r = t.mag;
					K.parameter(r, d), e.magFilter = d[r];
				}
				var a = e.wrapS, o = e.wrapT;
				if ("wrap" in t) {
					var s = t.wrap;
					typeof s == "string" ? (K.parameter(s, u), a = o = u[s]) : Array.isArray(s) && (K.parameter(s[0], u), K.parameter(s[1], u), a = u[s[0]], o = u[s[1]]);
				} else {
					if ("wrapS" in t) {
						var c = t.wrapS;
						K.parameter(c, u), a = u[c];
					}
					if ("wrapT" in t) {
						var p = t.wrapT;
						K.parameter(p, u), o = u[p];
					}
				}
				if (e.wrapS = a, e.wrapT = o, "anisotropic" in t) {
					var m = t.anisotropic;
					K(typeof m == "number" && m >= 1 && m <= i.maxAnisotropic, "aniso samples must be between 1 and "), e.anisotropic = t.anisotropic;
				}
				if ("mipmap" in t) {
					var h = !1;
					switch (typeof t.mipmap) {
						case "string":
							K.parameter(t.mipmap, l, "invalid mipmap hint"), e.mipmapHint = l[t.mipmap], e.genMipmaps = !0, h = !0;
							break;
						case "boolean":
							h = e.genMipmaps = t.mipmap;
							break;
						case "object":
							K(Array.isArray(t.mipmap), "invalid mipmap type"), e.genMipmaps = !1, h = !0;
							break;
						default: K.raise("invalid mipmap type");
					}
					h && !("min" in t) && (e.minFilter = cr);
				}
			}
			function V(e, t) {
				n.texParameteri(t, ar, e.minFilter), n.texParameteri(t, ir, e.magFilter), n.texParameteri(t, $n, e.wrapS), n.texParameteri(t, er, e.wrapT), r.ext_texture_filter_anisotropic && n.texParameteri(t, gr, e.anisotropic), e.genMipmaps && (n.hint(fr, e.mipmapHint), n.generateMipmap(t));
			}
			var H = 0, ie = {}, ae = i.maxTextureUnits, oe = Array(ae).map(function() {
				return null;
			});
			function U(e) {
				T.call(this), this.mipmask = 0, this.internalformat = bn, this.id = H++, this.refCount = 1, this.target = e, this.texture = n.createTexture(), this.unit = -1, this.bindCount = 0, this.texInfo = new B(), c.profile && (this.stats = { size: 0 });
			}
			function W(e) {
				n.activeTexture(xr), n.bindTexture(e.target, e.texture);
			}
			function G() {
				var e = oe[0];
				e ? n.bindTexture(e.target, e.texture) : n.bindTexture(_n, null);
			}
			function se(e) {
				var t = e.texture;
				K(t, "must not double destroy texture");
				var r = e.unit, i = e.target;
				r >= 0 && (n.activeTexture(xr + r), n.bindTexture(i, null), oe[r] = null), n.deleteTexture(t), e.texture = null, e.params = null, e.pixels = null, e.refCount = 0, delete ie[e.id], s.textureCount--;
			}
			t(U.prototype, {
				bind: function() {
					var e = this;
					e.bindCount += 1;
					var t = e.unit;
					if (t < 0) {
						for (var r = 0; r < ae; ++r) {
							var i = oe[r];
							if (i) {
								if (i.bindCount > 0) continue;
								i.unit = -1;
							}
							oe[r] = e, t = r;
							break;
						}
						t >= ae && K.raise("insufficient number of texture units"), c.profile && s.maxTextureUnits < t + 1 && (s.maxTextureUnits = t + 1), e.unit = t, n.activeTexture(xr + t), n.bindTexture(e.target, e.texture);
					}
					return t;
				},
				unbind: function() {
					--this.bindCount;
				},
				decRef: function() {
					--this.refCount <= 0 && se(this);
				}
			});
			function ce(e, t) {
				var r = new U(_n);
				ie[r.id] = r, s.textureCount++;
				function a(e, t) {
					var n = r.texInfo;
					B.call(n);
					var o = z();
					return typeof e == "number" ? typeof t == "number" ? te(o, e | 0, t | 0) : te(o, e | 0, e | 0) : e ? (K.type(e, "object", "invalid arguments to regl.texture"), re(n, e), I(o, e)) : te(o, 1, 1), n.genMipmaps && (o.mipmask = (o.width << 1) - 1), r.mipmask = o.mipmask, E(r, o), K.texture2D(n, o, i), r.internalformat = o.internalformat, a.width = o.width, a.height = o.height, W(r), L(o, _n), V(n, _n), G(), ne(o), c.profile && (r.stats.size = Xr(r.internalformat, r.type, o.width, o.height, n.genMipmaps, !1)), a.format = y[r.internalformat], a.type = b[r.type], a.mag = x[n.magFilter], a.min = S[n.minFilter], a.wrapS = C[n.wrapS], a.wrapT = C[n.wrapT], a;
				}
				function o(e, t, n, i) {
					K(!!e, "must specify image data");
					var o = t | 0, s = n | 0, c = i | 0, l = P();
					return E(l, r), l.width = 0, l.height = 0, A(l, e), l.width = l.width || (r.width >> c) - o, l.height = l.height || (r.height >> c) - s, K(r.type === l.type && r.format === l.format && r.internalformat === l.internalformat, "incompatible format for texture.subimage"), K(o >= 0 && s >= 0 && o + l.width <= r.width && s + l.height <= r.height, "texture.subimage write out of bounds"), K(r.mipmask & 1 << c, "missing mipmap data"), K(l.data || l.element || l.needsCopy, "missing image data"), W(r), M(l, _n, o, s, c), G(), F(l), a;
				}
				function l(e, t) {
					var i = e | 0, o = t | 0 || i;
					if (i === r.width && o === r.height) return a;
					a.width = r.width = i, a.height = r.height = o, W(r);
					for (var s = 0; r.mipmask >> s; ++s) {
						var l = i >> s, u = o >> s;
						if (!l || !u) break;
						n.texImage2D(_n, s, r.format, l, u, 0, r.format, r.type, null);
					}
					return G(), c.profile && (r.stats.size = Xr(r.internalformat, r.type, i, o, !1, !1)), a;
				}
				return a(e, t), a.subimage = o, a.resize = l, a._reglType = "texture2d", a._texture = r, c.profile && (a.stats = r.stats), a.destroy = function() {
					r.decRef();
				}, a;
			}
			function le(e, t, r, a, o, l) {
				var u = new U(vn);
				ie[u.id] = u, s.cubeCount++;
				var d = [
					,
					,
					,
					,
					,
					,
				];
				function f(e, t, n, r, a, o) {
					var s, l = u.texInfo;
					for (B.call(l), s = 0; s < 6; ++s) d[s] = z();
					if (typeof e == "number" || !e) {
						var p = e | 0 || 1;
						for (s = 0; s < 6; ++s) te(d[s], p, p);
					} else if (typeof e == "object") {
						if (t) I(d[0], e), I(d[1], t), I(d[2], n), I(d[3], r), I(d[4], a), I(d[5], o);
						else if (re(l, e), D(u, e), "faces" in e) {
							var m = e.faces;
							for (K(Array.isArray(m) && m.length === 6, "cube faces must be a length 6 array"), s = 0; s < 6; ++s) K(typeof m[s] == "object" && !!m[s], "invalid input for cube map face"), E(d[s], u), I(d[s], m[s]);
						} else for (s = 0; s < 6; ++s) I(d[s], e);
					} else K.raise("invalid arguments to cube map");
					for (E(u, d[0]), K.optional(function() {
						i.npotTextureCube || K(hn(u.width) && hn(u.height), "your browser does not support non power or two texture dimensions");
					}), u.mipmask = l.genMipmaps ? (d[0].width << 1) - 1 : d[0].mipmask, K.textureCube(u, l, d, i), u.internalformat = d[0].internalformat, f.width = d[0].width, f.height = d[0].height, W(u), s = 0; s < 6; ++s) L(d[s], yn + s);
					for (V(l, vn), G(), c.profile && (u.stats.size = Xr(u.internalformat, u.type, f.width, f.height, l.genMipmaps, !0)), f.format = y[u.internalformat], f.type = b[u.type], f.mag = x[l.magFilter], f.min = S[l.minFilter], f.wrapS = C[l.wrapS], f.wrapT = C[l.wrapT], s = 0; s < 6; ++s) ne(d[s]);
					return f;
				}
				function p(e, t, n, r, i) {
					K(!!t, "must specify image data"), K(typeof e == "number" && e === (e | 0) && e >= 0 && e < 6, "invalid face");
					var a = n | 0, o = r | 0, s = i | 0, c = P();
					return E(c, u), c.width = 0, c.height = 0, A(c, t), c.width = c.width || (u.width >> s) - a, c.height = c.height || (u.height >> s) - o, K(u.type === c.type && u.format === c.format && u.internalformat === c.internalformat, "incompatible format for texture.subimage"), K(a >= 0 && o >= 0 && a + c.width <= u.width && o + c.height <= u.height, "texture.subimage write out of bounds"), K(u.mipmask & 1 << s, "missing mipmap data"), K(c.data || c.element || c.needsCopy, "missing image data"), W(u), M(c, yn + e, a, o, s), G(), F(c), f;
				}
				function m(e) {
					var t = e | 0;
					if (t !== u.width) {
						f.width = u.width = t, f.height = u.height = t, W(u);
						for (var r = 0; r < 6; ++r) for (var i = 0; u.mipmask >> i; ++i) n.texImage2D(yn + r, i, u.format, t >> i, t >> i, 0, u.format, u.type, null);
						return G(), c.profile && (u.stats.size = Xr(u.internalformat, u.type, f.width, f.height, !1, !0)), f;
					}
				}
				return f(e, t, r, a, o, l), f.subimage = p, f.resize = m, f._reglType = "textureCube", f._texture = u, c.profile && (f.stats = u.stats), f.destroy = function() {
					u.decRef();
				}, f;
			}
			function ue() {
				for (var e = 0; e < ae; ++e) n.activeTexture(xr + e), n.bindTexture(_n, null), oe[e] = null;
				Dt(ie).forEach(se), s.cubeCount = 0, s.textureCount = 0;
			}
			c.profile && (s.getTotalTextureSize = function() {
				var e = 0;
				return Object.keys(ie).forEach(function(t) {
					e += ie[t].stats.size;
				}), e;
			});
			function de() {
				for (var e = 0; e < ae; ++e) {
					var t = oe[e];
					t && (t.bindCount = 0, t.unit = -1, oe[e] = null);
				}
				Dt(ie).forEach(function(e) {
					e.texture = n.createTexture(), n.bindTexture(e.target, e.texture);
					for (var t = 0; t < 32; ++t) if (e.mipmask & 1 << t) {
						if (e.target === _n) n.texImage2D(_n, t, e.internalformat, e.width >> t, e.height >> t, 0, e.internalformat, e.type, null);
						else for (var r = 0; r < 6; ++r) n.texImage2D(yn + r, t, e.internalformat, e.width >> t, e.height >> t, 0, e.internalformat, e.type, null);
					}
					V(e.texInfo, e.target);
				});
			}
			function fe() {
				for (var e = 0; e < ae; ++e) {
					var t = oe[e];
					t && (t.bindCount = 0, t.unit = -1, oe[e] = null), n.activeTexture(xr + e), n.bindTexture(_n, null), n.bindTexture(vn, null);
				}
			}
			return {
				create2D: ce,
				createCube: le,
				clear: ue,
				getTexture: function(e) {
					return null;
				},
				restore: de,
				refresh: fe
			};
		}
		var Qr = 36161, $r = 32854, ei = 32855, ti = 36194, ni = 33189, ri = 36168, ii = 34041, ai = 35907, oi = 34836, si = 34842, ci = 34843, li = [];
		li[$r] = 2, li[ei] = 2, li[ti] = 2, li[ni] = 2, li[ri] = 1, li[ii] = 4, li[ai] = 4, li[oi] = 16, li[si] = 8, li[ci] = 6;
		function ui(e, t, n) {
			return li[e] * t * n;
		}
		var di = function(e, t, n, r, i) {
			var a = {
				rgba4: $r,
				rgb565: ti,
				"rgb5 a1": ei,
				depth: ni,
				stencil: ri,
				"depth stencil": ii
			};
			t.ext_srgb && (a.srgba = ai), t.ext_color_buffer_half_float && (a.rgba16f = si, a.rgb16f = ci), t.webgl_color_buffer_float && (a.rgba32f = oi);
			var o = [];
			Object.keys(a).forEach(function(e) {
				var t = a[e];
				o[t] = e;
			});
			var s = 0, c = {};
			function l(e) {
				this.id = s++, this.refCount = 1, this.renderbuffer = e, this.format = $r, this.width = 0, this.height = 0, i.profile && (this.stats = { size: 0 });
			}
			l.prototype.decRef = function() {
				--this.refCount <= 0 && u(this);
			};
			function u(t) {
				var n = t.renderbuffer;
				K(n, "must not double destroy renderbuffer"), e.bindRenderbuffer(Qr, null), e.deleteRenderbuffer(n), t.renderbuffer = null, t.refCount = 0, delete c[t.id], r.renderbufferCount--;
			}
			function d(t, s) {
				var u = new l(e.createRenderbuffer());
				c[u.id] = u, r.renderbufferCount++;
				function d(t, r) {
					var s = 0, c = 0, l = $r;
					if (typeof t == "object" && t) {
						var f = t;
						if ("shape" in f) {
							var p = f.shape;
							K(Array.isArray(p) && p.length >= 2, "invalid renderbuffer shape"), s = p[0] | 0, c = p[1] | 0;
						} else "radius" in f && (s = c = f.radius | 0), "width" in f && (s = f.width | 0), "height" in f && (c = f.height | 0);
						"format" in f && (K.parameter(f.format, a, "invalid renderbuffer format"), l = a[f.format]);
					} else typeof t == "number" ? (s = t | 0, c = typeof r == "number" ? r | 0 : s) : t ? K.raise("invalid arguments to renderbuffer constructor") : s = c = 1;
					if (K(s > 0 && c > 0 && s <= n.maxRenderbufferSize && c <= n.maxRenderbufferSize, "invalid renderbuffer size"), s !== u.width || c !== u.height || l !== u.format) return d.width = u.width = s, d.height = u.height = c, u.format = l, e.bindRenderbuffer(Qr, u.renderbuffer), e.renderbufferStorage(Qr, l, s, c), K(e.getError() === 0, "invalid render buffer format"), i.profile && (u.stats.size = ui(u.format, u.width, u.height)), d.format = o[u.format], d;
				}
				function f(t, r) {
					var a = t | 0, o = r | 0 || a;
					return a === u.width && o === u.height || (K(a > 0 && o > 0 && a <= n.maxRenderbufferSize && o <= n.maxRenderbufferSize, "invalid renderbuffer size"), d.width = u.width = a, d.height = u.height = o, e.bindRenderbuffer(Qr, u.renderbuffer), e.renderbufferStorage(Qr, u.format, a, o), K(e.getError() === 0, "invalid render buffer format"), i.profile && (u.stats.size = ui(u.format, u.width, u.height))), d;
				}
				return d(t, s), d.resize = f, d._reglType = "renderbuffer", d._renderbuffer = u, i.profile && (d.stats = u.stats), d.destroy = function() {
					u.decRef();
				}, d;
			}
			i.profile && (r.getTotalRenderbufferSize = function() {
				var e = 0;
				return Object.keys(c).forEach(function(t) {
					e += c[t].stats.size;
				}), e;
			});
			function f() {
				Dt(c).forEach(function(t) {
					t.renderbuffer = e.createRenderbuffer(), e.bindRenderbuffer(Qr, t.renderbuffer), e.renderbufferStorage(Qr, t.format, t.width, t.height);
				}), e.bindRenderbuffer(Qr, null);
			}
			return {
				create: d,
				clear: function() {
					Dt(c).forEach(u);
				},
				restore: f
			};
		}, fi = 36160, pi = 36161, mi = 3553, hi = 34069, gi = 36064, _i = 36096, vi = 36128, yi = 33306, bi = 36053, xi = 36054, Si = 36055, Ci = 36057, wi = 36061, Ti = 36193, Ei = 5121, Di = 5126, Oi = 6407, ki = 6408, Ai = 6402, ji = [Oi, ki], Mi = [];
		Mi[ki] = 4, Mi[Oi] = 3;
		var Ni = [];
		Ni[Ei] = 1, Ni[Di] = 4, Ni[Ti] = 2;
		var Pi = 32854, Fi = 32855, Ii = 36194, Li = 33189, Ri = 36168, zi = 34041, Bi = [
			Pi,
			Fi,
			Ii,
			35907,
			34842,
			34843,
			34836
		], Vi = {};
		Vi[bi] = "complete", Vi[xi] = "incomplete attachment", Vi[Ci] = "incomplete dimensions", Vi[Si] = "incomplete, missing attachment", Vi[wi] = "unsupported";
		function Hi(e, n, r, i, a, o) {
			var s = {
				cur: null,
				next: null,
				dirty: !1,
				setFBO: null
			}, c = ["rgba"], l = [
				"rgba4",
				"rgb565",
				"rgb5 a1"
			];
			n.ext_srgb && l.push("srgba"), n.ext_color_buffer_half_float && l.push("rgba16f", "rgb16f"), n.webgl_color_buffer_float && l.push("rgba32f");
			var u = ["uint8"];
			n.oes_texture_half_float && u.push("half float", "float16"), n.oes_texture_float && u.push("float", "float32");
			function d(e, t, n) {
				this.target = e, this.texture = t, this.renderbuffer = n;
				var r = 0, i = 0;
				t ? (r = t.width, i = t.height) : n && (r = n.width, i = n.height), this.width = r, this.height = i;
			}
			function f(e) {
				e && (e.texture && e.texture._texture.decRef(), e.renderbuffer && e.renderbuffer._renderbuffer.decRef());
			}
			function p(e, t, n) {
				if (e) {
					if (e.texture) {
						var r = e.texture._texture, i = Math.max(1, r.width), a = Math.max(1, r.height);
						K(i === t && a === n, "inconsistent width/height for supplied texture"), r.refCount += 1;
					} else {
						var o = e.renderbuffer._renderbuffer;
						K(o.width === t && o.height === n, "inconsistent width/height for renderbuffer"), o.refCount += 1;
					}
				}
			}
			function m(t, n) {
				n && (n.texture ? e.framebufferTexture2D(fi, t, n.target, n.texture._texture.texture, 0) : e.framebufferRenderbuffer(fi, t, pi, n.renderbuffer._renderbuffer.renderbuffer));
			}
			function h(e) {
				var t = mi, n = null, r = null, i = e;
				typeof e == "object" && (i = e.data, "target" in e && (t = e.target | 0)), K.type(i, "function", "invalid attachment data");
				var a = i._reglType;
				return a === "texture2d" ? (n = i, K(t === mi)) : a === "textureCube" ? (n = i, K(t >= hi && t < hi + 6, "invalid cube map target")) : a === "renderbuffer" ? (r = i, t = pi) : K.raise("invalid regl object for attachment"), new d(t, n, r);
			}
			function g(e, t, n, r, o) {
				if (n) {
					var s = i.create2D({
						width: e,
						height: t,
						format: r,
						type: o
					});
					return s._texture.refCount = 0, new d(mi, s, null);
				}
				var c = a.create({
					width: e,
					height: t,
					format: r
				});
				return c._renderbuffer.refCount = 0, new d(pi, null, c);
			}
			function _(e) {
				return e && (e.texture || e.renderbuffer);
			}
			function v(e, t, n) {
				e && (e.texture ? e.texture.resize(t, n) : e.renderbuffer && e.renderbuffer.resize(t, n), e.width = t, e.height = n);
			}
			var y = 0, b = {};
			function x() {
				this.id = y++, b[this.id] = this, this.framebuffer = e.createFramebuffer(), this.width = 0, this.height = 0, this.colorAttachments = [], this.depthAttachment = null, this.stencilAttachment = null, this.depthStencilAttachment = null;
			}
			function S(e) {
				e.colorAttachments.forEach(f), f(e.depthAttachment), f(e.stencilAttachment), f(e.depthStencilAttachment);
			}
			function C(t) {
				var n = t.framebuffer;
				K(n, "must not double destroy framebuffer"), e.deleteFramebuffer(n), t.framebuffer = null, o.framebufferCount--, delete b[t.id];
			}
			function w(t) {
				var n;
				e.bindFramebuffer(fi, t.framebuffer);
				var i = t.colorAttachments;
				for (n = 0; n < i.length; ++n) m(gi + n, i[n]);
				for (n = i.length; n < r.maxColorAttachments; ++n) e.framebufferTexture2D(fi, gi + n, mi, null, 0);
				e.framebufferTexture2D(fi, yi, mi, null, 0), e.framebufferTexture2D(fi, _i, mi, null, 0), e.framebufferTexture2D(fi, vi, mi, null, 0), m(_i, t.depthAttachment), m(vi, t.stencilAttachment), m(yi, t.depthStencilAttachment);
				var a = e.checkFramebufferStatus(fi);
				!e.isContextLost() && a !== bi && K.raise("framebuffer configuration not supported, status = " + Vi[a]), e.bindFramebuffer(fi, s.next ? s.next.framebuffer : null), s.cur = s.next, e.getError();
			}
			function T(e, i) {
				var a = new x();
				o.framebufferCount++;
				function d(e, t) {
					var i;
					K(s.next !== a, "can not update framebuffer which is currently in use");
					var o = 0, f = 0, m = !0, v = !0, y = null, b = !0, x = "rgba", C = "uint8", T = 1, E = null, D = null, O = null, k = !1;
					if (typeof e == "number") o = e | 0, f = t | 0 || o;
					else if (!e) o = f = 1;
					else {
						K.type(e, "object", "invalid arguments for framebuffer");
						var A = e;
						if ("shape" in A) {
							var j = A.shape;
							K(Array.isArray(j) && j.length >= 2, "invalid shape for framebuffer"), o = j[0], f = j[1];
						} else "radius" in A && (o = f = A.radius), "width" in A && (o = A.width), "height" in A && (f = A.height);
						("color" in A || "colors" in A) && (y = A.color || A.colors, Array.isArray(y) && K(y.length === 1 || n.webgl_draw_buffers, "multiple render targets not supported")), y || ("colorCount" in A && (T = A.colorCount | 0, K(T > 0, "invalid color buffer count")), "colorTexture" in A && (b = !!A.colorTexture, x = "rgba4"), "colorType" in A && (C = A.colorType, b ? (K(n.oes_texture_float || C !== "float" && C !== "float32", "you must enable OES_texture_float in order to use floating point framebuffer objects"), K(n.oes_texture_half_float || C !== "half float" && C !== "float16", "you must enable OES_texture_half_float in order to use 16-bit floating point framebuffer objects")) : C === "half float" || C === "float16" ? (K(n.ext_color_buffer_half_float, "you must enable EXT_color_buffer_half_float to use 16-bit render buffers"), x = "rgba16f") : (C === "float" || C === "float32") && (K(n.webgl_color_buffer_float, "you must enable WEBGL_color_buffer_float in order to use 32-bit floating point renderbuffers"), x = "rgba32f"), K.oneOf(C, u, "invalid color type")), "colorFormat" in A && (x = A.colorFormat, c.indexOf(x) >= 0 ? b = !0 : l.indexOf(x) >= 0 ? b = !1 : K.optional(function() {
							b ? K.oneOf(A.colorFormat, c, "invalid color format for texture") : K.oneOf(A.colorFormat, l, "invalid color format for renderbuffer");
						}))), ("depthTexture" in A || "depthStencilTexture" in A) && (k = !!(A.depthTexture || A.depthStencilTexture), K(!k || n.webgl_depth_texture, "webgl_depth_texture extension not supported")), "depth" in A && (typeof A.depth == "boolean" ? m = A.depth : (E = A.depth, v = !1)), "stencil" in A && (typeof A.stencil == "boolean" ? v = A.stencil : (D = A.stencil, m = !1)), "depthStencil" in A && (typeof A.depthStencil == "boolean" ? m = v = A.depthStencil : (O = A.depthStencil, m = !1, v = !1));
					}
					var M = null, N = null, P = null, F = null;
					if (Array.isArray(y)) M = y.map(h);
					else if (y) M = [h(y)];
					else for (M = Array(T), i = 0; i < T; ++i) M[i] = g(o, f, b, x, C);
					K(n.webgl_draw_buffers || M.length <= 1, "you must enable the WEBGL_draw_buffers extension in order to use multiple color buffers."), K(M.length <= r.maxColorAttachments, "too many color attachments, not supported"), o = o || M[0].width, f = f || M[0].height, E ? N = h(E) : m && !v && (N = g(o, f, k, "depth", "uint32")), D ? P = h(D) : v && !m && (P = g(o, f, !1, "stencil", "uint8")), O ? F = h(O) : !E && !D && v && m && (F = g(o, f, k, "depth stencil", "depth stencil")), K(!!E + !!D + !!O <= 1, "invalid framebuffer configuration, can specify exactly one depth/stencil attachment");
					var ee = null;
					for (i = 0; i < M.length; ++i) if (p(M[i], o, f), K(!M[i] || M[i].texture && ji.indexOf(M[i].texture._texture.format) >= 0 || M[i].renderbuffer && Bi.indexOf(M[i].renderbuffer._renderbuffer.format) >= 0, "framebuffer color attachment " + i + " is invalid"), M[i] && M[i].texture) {
						var te = Mi[M[i].texture._texture.format] * Ni[M[i].texture._texture.type];
						ee === null ? ee = te : K(ee === te, "all color attachments much have the same number of bits per pixel.");
					}
					return p(N, o, f), K(!N || N.texture && N.texture._texture.format === Ai || N.renderbuffer && N.renderbuffer._renderbuffer.format === Li, "invalid depth attachment for framebuffer object"), p(P, o, f), K(!P || P.renderbuffer && P.renderbuffer._renderbuffer.format === Ri, "invalid stencil attachment for framebuffer object"), p(F, o, f), K(!F || F.texture && F.texture._texture.format === zi || F.renderbuffer && F.renderbuffer._renderbuffer.format === zi, "invalid depth-stencil attachment for framebuffer object"), S(a), a.width = o, a.height = f, a.colorAttachments = M, a.depthAttachment = N, a.stencilAttachment = P, a.depthStencilAttachment = F, d.color = M.map(_), d.depth = _(N), d.stencil = _(P), d.depthStencil = _(F), d.width = a.width, d.height = a.height, w(a), d;
				}
				function f(e, t) {
					K(s.next !== a, "can not resize a framebuffer which is currently in use");
					var n = Math.max(e | 0, 1), r = Math.max(t | 0 || n, 1);
					if (n === a.width && r === a.height) return d;
					for (var i = a.colorAttachments, o = 0; o < i.length; ++o) v(i[o], n, r);
					return v(a.depthAttachment, n, r), v(a.stencilAttachment, n, r), v(a.depthStencilAttachment, n, r), a.width = d.width = n, a.height = d.height = r, w(a), d;
				}
				return d(e, i), t(d, {
					resize: f,
					_reglType: "framebuffer",
					_framebuffer: a,
					destroy: function() {
						C(a), S(a);
					},
					use: function(e) {
						s.setFBO({ framebuffer: d }, e);
					}
				});
			}
			function E(e) {
				var a = [
					,
					,
					,
					,
					,
					,
				];
				function o(e) {
					var r;
					K(a.indexOf(s.next) < 0, "can not update framebuffer which is currently in use");
					var l = { color: null }, d = 0, f = null, p = "rgba", m = "uint8", h = 1;
					if (typeof e == "number") d = e | 0;
					else if (!e) d = 1;
					else {
						K.type(e, "object", "invalid arguments for framebuffer");
						var g = e;
						if ("shape" in g) {
							var _ = g.shape;
							K(Array.isArray(_) && _.length >= 2, "invalid shape for framebuffer"), K(_[0] === _[1], "cube framebuffer must be square"), d = _[0];
						} else "radius" in g && (d = g.radius | 0), "width" in g ? (d = g.width | 0, "height" in g && K(g.height === d, "must be square")) : "height" in g && (d = g.height | 0);
						("color" in g || "colors" in g) && (f = g.color || g.colors, Array.isArray(f) && K(f.length === 1 || n.webgl_draw_buffers, "multiple render targets not supported")), f || ("colorCount" in g && (h = g.colorCount | 0, K(h > 0, "invalid color buffer count")), "colorType" in g && (K.oneOf(g.colorType, u, "invalid color type"), m = g.colorType), "colorFormat" in g && (p = g.colorFormat, K.oneOf(g.colorFormat, c, "invalid color format for texture"))), "depth" in g && (l.depth = g.depth), "stencil" in g && (l.stencil = g.stencil), "depthStencil" in g && (l.depthStencil = g.depthStencil);
					}
					var v;
					if (f) {
						if (Array.isArray(f)) for (v = [], r = 0; r < f.length; ++r) v[r] = f[r];
						else v = [f];
					} else {
						v = Array(h);
						var y = {
							radius: d,
							format: p,
							type: m
						};
						for (r = 0; r < h; ++r) v[r] = i.createCube(y);
					}
					for (l.color = Array(v.length), r = 0; r < v.length; ++r) {
						var b = v[r];
						K(typeof b == "function" && b._reglType === "textureCube", "invalid cube map"), d = d || b.width, K(b.width === d && b.height === d, "invalid cube map shape"), l.color[r] = {
							target: hi,
							data: v[r]
						};
					}
					for (r = 0; r < 6; ++r) {
						for (var x = 0; x < v.length; ++x) l.color[x].target = hi + r;
						r > 0 && (l.depth = a[0].depth, l.stencil = a[0].stencil, l.depthStencil = a[0].depthStencil), a[r] ? a[r](l) : a[r] = T(l);
					}
					return t(o, {
						width: d,
						height: d,
						color: v
					});
				}
				function l(e) {
					var t, n = e | 0;
					if (K(n > 0 && n <= r.maxCubeMapSize, "invalid radius for cube fbo"), n === o.width) return o;
					var i = o.color;
					for (t = 0; t < i.length; ++t) i[t].resize(n);
					for (t = 0; t < 6; ++t) a[t].resize(n);
					return o.width = o.height = n, o;
				}
				return o(e), t(o, {
					faces: a,
					resize: l,
					_reglType: "framebufferCube",
					destroy: function() {
						a.forEach(function(e) {
							e.destroy();
						});
					}
				});
			}
			function D() {
				s.cur = null, s.next = null, s.dirty = !0, Dt(b).forEach(function(t) {
					t.framebuffer = e.createFramebuffer(), w(t);
				});
			}
			return t(s, {
				getFramebuffer: function(e) {
					if (typeof e == "function" && e._reglType === "framebuffer") {
						var t = e._framebuffer;
						if (t instanceof x) return t;
					}
					return null;
				},
				create: T,
				createCube: E,
				clear: function() {
					Dt(b).forEach(C);
				},
				restore: D
			});
		}
		var Ui = 5126, Wi = 34962, Gi = 34963, Ki = [
			"attributes",
			"elements",
			"offset",
			"count",
			"primitive",
			"instances"
		];
		function qi() {
			this.state = 0, this.x = 0, this.y = 0, this.z = 0, this.w = 0, this.buffer = null, this.size = 0, this.normalized = !1, this.type = Ui, this.offset = 0, this.stride = 0, this.divisor = 0;
		}
		function Ji(t, n, r, i, a, o, s) {
			for (var c = r.maxAttributes, l = Array(c), u = 0; u < c; ++u) l[u] = new qi();
			var d = 0, f = {}, p = {
				Record: qi,
				scope: {},
				state: l,
				currentVAO: null,
				targetVAO: null,
				restore: h() ? S : function() {},
				createVAO: C,
				getVAO: _,
				destroyBuffer: m,
				setVAO: h() ? v : y,
				clear: h() ? b : function() {}
			};
			function m(e) {
				for (var n = 0; n < l.length; ++n) {
					var r = l[n];
					r.buffer === e && (t.disableVertexAttribArray(n), r.buffer = null);
				}
			}
			function h() {
				return n.oes_vertex_array_object;
			}
			function g() {
				return n.angle_instanced_arrays;
			}
			function _(e) {
				return typeof e == "function" && e._vao ? e._vao : null;
			}
			function v(e) {
				if (e !== p.currentVAO) {
					var t = h();
					e ? t.bindVertexArrayOES(e.vao) : t.bindVertexArrayOES(null), p.currentVAO = e;
				}
			}
			function y(e) {
				if (e !== p.currentVAO) {
					if (e) e.bindAttrs();
					else {
						for (var n = g(), r = 0; r < l.length; ++r) {
							var i = l[r];
							i.buffer ? (t.enableVertexAttribArray(r), i.buffer.bind(), t.vertexAttribPointer(r, i.size, i.type, i.normalized, i.stride, i.offfset), n && i.divisor && n.vertexAttribDivisorANGLE(r, i.divisor)) : (t.disableVertexAttribArray(r), t.vertexAttrib4f(r, i.x, i.y, i.z, i.w));
						}
						s.elements ? t.bindBuffer(Gi, s.elements.buffer.buffer) : t.bindBuffer(Gi, null);
					}
					p.currentVAO = e;
				}
			}
			function b() {
				Dt(f).forEach(function(e) {
					e.destroy();
				});
			}
			function x() {
				this.id = ++d, this.attributes = [], this.elements = null, this.ownsElements = !1, this.count = 0, this.offset = 0, this.instances = -1, this.primitive = 4;
				var e = h();
				this.vao = e ? e.createVertexArrayOES() : null, f[this.id] = this, this.buffers = [];
			}
			x.prototype.bindAttrs = function() {
				for (var e = g(), n = this.attributes, r = 0; r < n.length; ++r) {
					var i = n[r];
					i.buffer ? (t.enableVertexAttribArray(r), t.bindBuffer(Wi, i.buffer.buffer), t.vertexAttribPointer(r, i.size, i.type, i.normalized, i.stride, i.offset), e && i.divisor && e.vertexAttribDivisorANGLE(r, i.divisor)) : (t.disableVertexAttribArray(r), t.vertexAttrib4f(r, i.x, i.y, i.z, i.w));
				}
				for (var a = n.length; a < c; ++a) t.disableVertexAttribArray(a);
				var s = o.getElements(this.elements);
				s ? t.bindBuffer(Gi, s.buffer.buffer) : t.bindBuffer(Gi, null);
			}, x.prototype.refresh = function() {
				var e = h();
				e && (e.bindVertexArrayOES(this.vao), this.bindAttrs(), p.currentVAO = null, e.bindVertexArrayOES(null));
			}, x.prototype.destroy = function() {
				if (this.vao) {
					var e = h();
					this === p.currentVAO && (p.currentVAO = null, e.bindVertexArrayOES(null)), e.deleteVertexArrayOES(this.vao), this.vao = null;
				}
				this.ownsElements && (this.elements.destroy(), this.elements = null, this.ownsElements = !1), f[this.id] && (delete f[this.id], --i.vaoCount);
			};
			function S() {
				h() && Dt(f).forEach(function(e) {
					e.refresh();
				});
			}
			function C(t) {
				var r = new x();
				i.vaoCount += 1;
				function s(t) {
					var i;
					if (Array.isArray(t)) i = t, r.elements && r.ownsElements && r.elements.destroy(), r.elements = null, r.ownsElements = !1, r.offset = 0, r.count = 0, r.instances = -1, r.primitive = 4;
					else {
						if (K(typeof t == "object", "invalid arguments for create vao"), K("attributes" in t, "must specify attributes for vao"), t.elements) {
							var l = t.elements;
							r.ownsElements ? typeof l == "function" && l._reglType === "elements" ? (r.elements.destroy(), r.ownsElements = !1) : (r.elements(l), r.ownsElements = !1) : o.getElements(t.elements) ? (r.elements = t.elements, r.ownsElements = !1) : (r.elements = o.create(t.elements), r.ownsElements = !0);
						} else r.elements = null, r.ownsElements = !1;
						i = t.attributes, r.offset = 0, r.count = -1, r.instances = -1, r.primitive = 4, r.elements && (r.count = r.elements._elements.vertCount, r.primitive = r.elements._elements.primType), "offset" in t && (r.offset = t.offset | 0), "count" in t && (r.count = t.count | 0), "instances" in t && (r.instances = t.instances | 0), "primitive" in t && (K(t.primitive in Yt, "bad primitive type: " + t.primitive), r.primitive = Yt[t.primitive]), K.optional(() => {
							for (var e = Object.keys(t), n = 0; n < e.length; ++n) K(Ki.indexOf(e[n]) >= 0, "invalid option for vao: \"" + e[n] + "\" valid options are " + Ki);
						}), K(Array.isArray(i), "attributes must be an array");
					}
					K(i.length < c, "too many attributes"), K(i.length > 0, "must specify at least one attribute");
					var u = {}, d = r.attributes;
					d.length = i.length;
					for (var f = 0; f < i.length; ++f) {
						var p = i[f], m = d[f] = new qi(), h = p.data || p;
						if (Array.isArray(h) || e(h) || Et(h)) {
							var g;
							r.buffers[f] && (g = r.buffers[f], e(h) && g._buffer.byteLength >= h.byteLength ? g.subdata(h) : (g.destroy(), r.buffers[f] = null)), r.buffers[f] || (g = r.buffers[f] = a.create(p, Wi, !1, !0)), m.buffer = a.getBuffer(g), m.size = m.buffer.dimension | 0, m.normalized = !1, m.type = m.buffer.dtype, m.offset = 0, m.stride = 0, m.divisor = 0, m.state = 1, u[f] = 1;
						} else a.getBuffer(p) ? (m.buffer = a.getBuffer(p), m.size = m.buffer.dimension | 0, m.normalized = !1, m.type = m.buffer.dtype, m.offset = 0, m.stride = 0, m.divisor = 0, m.state = 1) : a.getBuffer(p.buffer) ? (m.buffer = a.getBuffer(p.buffer), m.size = (+p.size || m.buffer.dimension) | 0, m.normalized = !!p.normalized || !1, "type" in p ? (K.parameter(p.type, It, "invalid buffer type"), m.type = It[p.type]) : m.type = m.buffer.dtype, m.offset = (p.offset || 0) | 0, m.stride = (p.stride || 0) | 0, m.divisor = (p.divisor || 0) | 0, m.state = 1, K(m.size >= 1 && m.size <= 4, "size must be between 1 and 4"), K(m.offset >= 0, "invalid offset"), K(m.stride >= 0 && m.stride <= 255, "stride must be between 0 and 255"), K(m.divisor >= 0, "divisor must be positive"), K(!m.divisor || !!n.angle_instanced_arrays, "ANGLE_instanced_arrays must be enabled to use divisor")) : "x" in p ? (K(f > 0, "first attribute must not be a constant"), m.x = +p.x || 0, m.y = +p.y || 0, m.z = +p.z || 0, m.w = +p.w || 0, m.state = 2) : K(!1, "invalid attribute spec for location " + f);
					}
					for (var _ = 0; _ < r.buffers.length; ++_) !u[_] && r.buffers[_] && (r.buffers[_].destroy(), r.buffers[_] = null);
					return r.refresh(), s;
				}
				return s.destroy = function() {
					for (var e = 0; e < r.buffers.length; ++e) r.buffers[e] && r.buffers[e].destroy();
					r.buffers.length = 0, r.ownsElements && (r.elements.destroy(), r.elements = null, r.ownsElements = !1), r.destroy();
				}, s._vao = r, s._reglType = "vao", s(t);
			}
			return p;
		}
		var Yi = 35632, Xi = 35633, Zi = 35718, Qi = 35721;
		function $i(e, n, r, i) {
			var a = {}, o = {};
			function s(e, t, n, r) {
				this.name = e, this.id = t, this.location = n, this.info = r;
			}
			function c(e, t) {
				for (var n = 0; n < e.length; ++n) if (e[n].id === t.id) {
					e[n].location = t.location;
					return;
				}
				e.push(t);
			}
			function l(t, r, i) {
				var s = t === Yi ? a : o, c = s[r];
				if (!c) {
					var l = n.str(r);
					c = e.createShader(t), e.shaderSource(c, l), e.compileShader(c), K.shaderError(e, c, l, t, i), s[r] = c;
				}
				return c;
			}
			var u = {}, d = [], f = 0;
			function p(e, t) {
				this.id = f++, this.fragId = e, this.vertId = t, this.program = null, this.uniforms = [], this.attributes = [], this.refCount = 1, i.profile && (this.stats = {
					uniformsCount: 0,
					attributesCount: 0
				});
			}
			function m(t, r, a) {
				var o, u, d = l(Yi, t.fragId), f = l(Xi, t.vertId), p = t.program = e.createProgram();
				if (e.attachShader(p, d), e.attachShader(p, f), a) for (o = 0; o < a.length; ++o) {
					var m = a[o];
					e.bindAttribLocation(p, m[0], m[1]);
				}
				e.linkProgram(p), K.linkError(e, p, n.str(t.fragId), n.str(t.vertId), r);
				var h = e.getProgramParameter(p, Zi);
				i.profile && (t.stats.uniformsCount = h);
				var g = t.uniforms;
				for (o = 0; o < h; ++o) if (u = e.getActiveUniform(p, o), u) {
					if (u.size > 1) for (var _ = 0; _ < u.size; ++_) {
						var v = u.name.replace("[0]", "[" + _ + "]");
						c(g, new s(v, n.id(v), e.getUniformLocation(p, v), u));
					}
					else c(g, new s(u.name, n.id(u.name), e.getUniformLocation(p, u.name), u));
				}
				var y = e.getProgramParameter(p, Qi);
				i.profile && (t.stats.attributesCount = y);
				var b = t.attributes;
				for (o = 0; o < y; ++o) u = e.getActiveAttrib(p, o), u && c(b, new s(u.name, n.id(u.name), e.getAttribLocation(p, u.name), u));
			}
			i.profile && (r.getMaxUniformsCount = function() {
				var e = 0;
				return d.forEach(function(t) {
					t.stats.uniformsCount > e && (e = t.stats.uniformsCount);
				}), e;
			}, r.getMaxAttributesCount = function() {
				var e = 0;
				return d.forEach(function(t) {
					t.stats.attributesCount > e && (e = t.stats.attributesCount);
				}), e;
			});
			function h() {
				a = {}, o = {};
				for (var e = 0; e < d.length; ++e) m(d[e], null, d[e].attributes.map(function(e) {
					return [e.location, e.name];
				}));
			}
			return {
				clear: function() {
					var t = e.deleteShader.bind(e);
					Dt(a).forEach(t), a = {}, Dt(o).forEach(t), o = {}, d.forEach(function(t) {
						e.deleteProgram(t.program);
					}), d.length = 0, u = {}, r.shaderCount = 0;
				},
				program: function(n, i, s, c) {
					K.command(n >= 0, "missing vertex shader", s), K.command(i >= 0, "missing fragment shader", s);
					var l = u[i];
					l || (l = u[i] = {});
					var f = l[n];
					if (f && (f.refCount++, !c)) return f;
					var h = new p(i, n);
					return r.shaderCount++, m(h, s, c), f || (l[n] = h), d.push(h), t(h, { destroy: function() {
						if (h.refCount--, h.refCount <= 0) {
							e.deleteProgram(h.program);
							var t = d.indexOf(h);
							d.splice(t, 1), r.shaderCount--;
						}
						l[h.vertId].refCount <= 0 && (e.deleteShader(o[h.vertId]), delete o[h.vertId], delete u[h.fragId][h.vertId]), Object.keys(u[h.fragId]).length || (e.deleteShader(a[h.fragId]), delete a[h.fragId], delete u[h.fragId]);
					} });
				},
				restore: h,
				shader: l,
				frag: -1,
				vert: -1
			};
		}
		var ea = 6408, ta = 5121, na = 3333, ra = 5126;
		function ia(t, n, r, i, a, o, s) {
			function c(c) {
				var l;
				n.next === null ? (K(a.preserveDrawingBuffer, "you must create a webgl context with \"preserveDrawingBuffer\":true in order to read pixels from the drawing buffer"), l = ta) : (K(n.next.colorAttachments[0].texture !== null, "You cannot read from a renderbuffer"), l = n.next.colorAttachments[0].texture._texture.type, K.optional(function() {
					o.oes_texture_float ? (K(l === ta || l === ra, "Reading from a framebuffer is only allowed for the types 'uint8' and 'float'"), l === ra && K(s.readFloat, "Reading 'float' values is not permitted in your browser. For a fallback, please see: https://www.npmjs.com/package/glsl-read-float")) : K(l === ta, "Reading from a framebuffer is only allowed for the type 'uint8'");
				}));
				var u = 0, d = 0, f = i.framebufferWidth, p = i.framebufferHeight, m = null;
				e(c) ? m = c : c && (K.type(c, "object", "invalid arguments to regl.read()"), u = c.x | 0, d = c.y | 0, K(u >= 0 && u < i.framebufferWidth, "invalid x offset for regl.read"), K(d >= 0 && d < i.framebufferHeight, "invalid y offset for regl.read"), f = (c.width || i.framebufferWidth - u) | 0, p = (c.height || i.framebufferHeight - d) | 0, m = c.data || null), m && (l === ta ? K(m instanceof Uint8Array, "buffer must be 'Uint8Array' when reading from a framebuffer of type 'uint8'") : l === ra && K(m instanceof Float32Array, "buffer must be 'Float32Array' when reading from a framebuffer of type 'float'")), K(f > 0 && f + u <= i.framebufferWidth, "invalid width for read pixels"), K(p > 0 && p + d <= i.framebufferHeight, "invalid height for read pixels"), r();
				var h = f * p * 4;
				return m || (l === ta ? m = new Uint8Array(h) : l === ra && (m = m || new Float32Array(h))), K.isTypedArray(m, "data buffer for regl.read() must be a typedarray"), K(m.byteLength >= h, "data buffer for regl.read() too small"), t.pixelStorei(na, 4), t.readPixels(u, d, f, p, ea, l, m), m;
			}
			function l(e) {
				var t;
				return n.setFBO({ framebuffer: e.framebuffer }, function() {
					t = c(e);
				}), t;
			}
			function u(e) {
				return !e || !("framebuffer" in e) ? c(e) : l(e);
			}
			return u;
		}
		function aa(e) {
			return Array.prototype.slice.call(e);
		}
		function oa(e) {
			return aa(e).join("");
		}
		function sa() {
			var e = 0, n = [], r = [];
			function i(t) {
				for (var i = 0; i < r.length; ++i) if (r[i] === t) return n[i];
				var a = "g" + e++;
				return n.push(a), r.push(t), a;
			}
			function a() {
				var n = [];
				function r() {
					n.push.apply(n, aa(arguments));
				}
				var i = [];
				function a() {
					var t = "v" + e++;
					return i.push(t), arguments.length > 0 && (n.push(t, "="), n.push.apply(n, aa(arguments)), n.push(";")), t;
				}
				return t(r, {
					def: a,
					toString: function() {
						return oa([i.length > 0 ? "var " + i.join(",") + ";" : "", oa(n)]);
					}
				});
			}
			function o() {
				var e = a(), n = a(), r = e.toString, i = n.toString;
				function o(t, r) {
					n(t, r, "=", e.def(t, r), ";");
				}
				return t(function() {
					e.apply(e, aa(arguments));
				}, {
					def: e.def,
					entry: e,
					exit: n,
					save: o,
					set: function(t, n, r) {
						o(t, n), e(t, n, "=", r, ";");
					},
					toString: function() {
						return r() + i();
					}
				});
			}
			function s() {
				var e = oa(arguments), n = o(), r = o(), i = n.toString, a = r.toString;
				return t(n, {
					then: function() {
						return n.apply(n, aa(arguments)), this;
					},
					else: function() {
						return r.apply(r, aa(arguments)), this;
					},
					toString: function() {
						var t = a();
						return t && (t = "else{" + t + "}"), oa([
							"if(",
							e,
							"){",
							i(),
							"}",
							t
						]);
					}
				});
			}
			var c = a(), l = {};
			function u(e, n) {
				var r = [];
				function i() {
					var e = "a" + r.length;
					return r.push(e), e;
				}
				n = n || 0;
				for (var a = 0; a < n; ++a) i();
				var s = o(), c = s.toString;
				return l[e] = t(s, {
					arg: i,
					toString: function() {
						return oa([
							"function(",
							r.join(),
							"){",
							c(),
							"}"
						]);
					}
				});
			}
			function d() {
				var e = [
					"\"use strict\";",
					c,
					"return {"
				];
				Object.keys(l).forEach(function(t) {
					e.push("\"", t, "\":", l[t].toString(), ",");
				}), e.push("}");
				var t = oa(e).replace(/;/g, ";\n").replace(/}/g, "}\n").replace(/{/g, "{\n");
				return Function.apply(null, n.concat(t)).apply(null, r);
			}
			return {
				global: c,
				link: i,
				block: a,
				proc: u,
				scope: o,
				cond: s,
				compile: d
			};
		}
		var ca = "xyzw".split(""), la = 5121, ua = 1, da = 2, fa = 0, pa = 1, ma = 2, ha = 3, ga = 4, _a = 5, va = 6, ya = "dither", ba = "blend.enable", xa = "blend.color", Sa = "blend.equation", Ca = "blend.func", wa = "depth.enable", Ta = "depth.func", Ea = "depth.range", Da = "depth.mask", Oa = "colorMask", ka = "cull.enable", Aa = "cull.face", ja = "frontFace", Ma = "lineWidth", Na = "polygonOffset.enable", Pa = "polygonOffset.offset", Fa = "sample.alpha", Ia = "sample.enable", La = "sample.coverage", Ra = "stencil.enable", za = "stencil.mask", Ba = "stencil.func", Va = "stencil.opFront", Ha = "stencil.opBack", Ua = "scissor.enable", Wa = "scissor.box", Ga = "viewport", Ka = "profile", qa = "framebuffer", Ja = "vert", Ya = "frag", Xa = "elements", Za = "primitive", $ = "count", Qa = "offset", $a = "instances", eo = "vao", to = "Width", no = "Height", ro = qa + to, io = qa + no, ao = Ga + to, oo = Ga + no, so = "drawingBuffer", co = so + to, lo = so + no, uo = [
			Ca,
			Sa,
			Ba,
			Va,
			Ha,
			La,
			Ga,
			Wa,
			Pa
		], fo = 34962, po = 34963, mo = 35632, ho = 35633, go = 3553, _o = 34067, vo = 2884, yo = 3042, bo = 3024, xo = 2960, So = 2929, Co = 3089, wo = 32823, To = 32926, Eo = 32928, Do = 5126, Oo = 35664, ko = 35665, Ao = 35666, jo = 5124, Mo = 35667, No = 35668, Po = 35669, Fo = 35670, Io = 35671, Lo = 35672, Ro = 35673, zo = 35674, Bo = 35675, Vo = 35676, Ho = 35678, Uo = 35680, Wo = 4, Go = 1028, Ko = 1029, qo = 2304, Jo = 2305, Yo = 32775, Xo = 32776, Zo = 519, Qo = 7680, $o = 0, es = 1, ts = 32774, ns = 513, rs = 36160, is = 36064, as = {
			0: 0,
			1: 1,
			zero: 0,
			one: 1,
			"src color": 768,
			"one minus src color": 769,
			"src alpha": 770,
			"one minus src alpha": 771,
			"dst color": 774,
			"one minus dst color": 775,
			"dst alpha": 772,
			"one minus dst alpha": 773,
			"constant color": 32769,
			"one minus constant color": 32770,
			"constant alpha": 32771,
			"one minus constant alpha": 32772,
			"src alpha saturate": 776
		}, os = [
			"constant color, constant alpha",
			"one minus constant color, constant alpha",
			"constant color, one minus constant alpha",
			"one minus constant color, one minus constant alpha",
			"constant alpha, constant color",
			"constant alpha, one minus constant color",
			"one minus constant alpha, constant color",
			"one minus constant alpha, one minus constant color"
		], ss = {
			never: 512,
			less: 513,
			"<": 513,
			equal: 514,
			"=": 514,
			"==": 514,
			"===": 514,
			lequal: 515,
			"<=": 515,
			greater: 516,
			">": 516,
			notequal: 517,
			"!=": 517,
			"!==": 517,
			gequal: 518,
			">=": 518,
			always: 519
		}, cs = {
			0: 0,
			zero: 0,
			keep: 7680,
			replace: 7681,
			increment: 7682,
			decrement: 7683,
			"increment wrap": 34055,
			"decrement wrap": 34056,
			invert: 5386
		}, ls = {
			frag: mo,
			vert: ho
		}, us = {
			cw: qo,
			ccw: Jo
		};
		function ds(t) {
			return Array.isArray(t) || e(t) || Et(t);
		}
		function fs(e) {
			return e.sort(function(e, t) {
				return e === Ga ? -1 : t === Ga ? 1 : e < t ? -1 : 1;
			});
		}
		function ps(e, t, n, r) {
			this.thisDep = e, this.contextDep = t, this.propDep = n, this.append = r;
		}
		function ms(e) {
			return e && !(e.thisDep || e.contextDep || e.propDep);
		}
		function hs(e) {
			return new ps(!1, !1, !1, e);
		}
		function gs(e, t) {
			var n = e.type;
			if (n === fa) {
				var r = e.data.length;
				return new ps(!0, r >= 1, r >= 2, t);
			}
			if (n === ga) {
				var i = e.data;
				return new ps(i.thisDep, i.contextDep, i.propDep, t);
			}
			if (n === _a) return new ps(!1, !1, !1, t);
			if (n === va) {
				for (var a = !1, o = !1, s = !1, c = 0; c < e.data.length; ++c) {
					var l = e.data[c];
					if (l.type === pa) s = !0;
					else if (l.type === ma) o = !0;
					else if (l.type === ha) a = !0;
					else if (l.type === fa) {
						a = !0;
						var u = l.data;
						u >= 1 && (o = !0), u >= 2 && (s = !0);
					} else l.type === ga && (a = a || l.data.thisDep, o = o || l.data.contextDep, s = s || l.data.propDep);
				}
				return new ps(a, o, s, t);
			}
			return new ps(n === ha, n === ma, n === pa, t);
		}
		var _s = new ps(!1, !1, !1, function() {});
		function vs(e, n, r, i, a, o, s, c, l, u, d, f, p, m, h) {
			var g = u.Record, _ = {
				add: 32774,
				subtract: 32778,
				"reverse subtract": 32779
			};
			r.ext_blend_minmax && (_.min = Yo, _.max = Xo);
			var v = r.angle_instanced_arrays, y = r.webgl_draw_buffers, b = r.oes_vertex_array_object, x = {
				dirty: !0,
				profile: h.profile
			}, S = {}, C = [], w = {}, T = {};
			function E(e) {
				return e.replace(".", "_");
			}
			function D(e, t, n) {
				var r = E(e);
				C.push(e), S[r] = x[r] = !!n, w[r] = t;
			}
			function O(e, t, n) {
				var r = E(e);
				C.push(e), Array.isArray(n) ? (x[r] = n.slice(), S[r] = n.slice()) : x[r] = S[r] = n, T[r] = t;
			}
			D(ya, bo), D(ba, yo), O(xa, "blendColor", [
				0,
				0,
				0,
				0
			]), O(Sa, "blendEquationSeparate", [ts, ts]), O(Ca, "blendFuncSeparate", [
				es,
				$o,
				es,
				$o
			]), D(wa, So, !0), O(Ta, "depthFunc", ns), O(Ea, "depthRange", [0, 1]), O(Da, "depthMask", !0), O(Oa, Oa, [
				!0,
				!0,
				!0,
				!0
			]), D(ka, vo), O(Aa, "cullFace", Ko), O(ja, ja, Jo), O(Ma, Ma, 1), D(Na, wo), O(Pa, "polygonOffset", [0, 0]), D(Fa, To), D(Ia, Eo), O(La, "sampleCoverage", [1, !1]), D(Ra, xo), O(za, "stencilMask", -1), O(Ba, "stencilFunc", [
				Zo,
				0,
				-1
			]), O(Va, "stencilOpSeparate", [
				Go,
				Qo,
				Qo,
				Qo
			]), O(Ha, "stencilOpSeparate", [
				Ko,
				Qo,
				Qo,
				Qo
			]), D(Ua, Co), O(Wa, "scissor", [
				0,
				0,
				e.drawingBufferWidth,
				e.drawingBufferHeight
			]), O(Ga, Ga, [
				0,
				0,
				e.drawingBufferWidth,
				e.drawingBufferHeight
			]);
			var k = {
				gl: e,
				context: p,
				strings: n,
				next: S,
				current: x,
				draw: f,
				elements: o,
				buffer: a,
				shader: d,
				attributes: u.state,
				vao: u,
				uniforms: l,
				framebuffer: c,
				extensions: r,
				timer: m,
				isBufferArgs: ds
			}, A = {
				primTypes: Yt,
				compareFuncs: ss,
				blendFuncs: as,
				blendEquations: _,
				stencilOps: cs,
				glTypes: It,
				orientationType: us
			};
			K.optional(function() {
				k.isArrayLike = mn;
			}), y && (A.backBuffer = [Ko], A.drawBuffer = je(i.maxDrawbuffers, function(e) {
				return e === 0 ? [0] : je(e, function(e) {
					return is + e;
				});
			}));
			var j = 0;
			function M() {
				var e = sa(), t = e.link, r = e.global;
				e.id = j++, e.batchId = "0";
				var i = t(k), a = e.shared = { props: "a0" };
				Object.keys(k).forEach(function(e) {
					a[e] = r.def(i, ".", e);
				}), K.optional(function() {
					e.CHECK = t(K), e.commandStr = K.guessCommand(), e.command = t(e.commandStr), e.assert = function(e, n, r) {
						e("if(!(", n, "))", this.CHECK, ".commandRaise(", t(r), ",", this.command, ");");
					}, A.invalidBlendCombinations = os;
				});
				var o = e.next = {}, s = e.current = {};
				Object.keys(T).forEach(function(e) {
					Array.isArray(x[e]) && (o[e] = r.def(a.next, ".", e), s[e] = r.def(a.current, ".", e));
				});
				var c = e.constants = {};
				Object.keys(A).forEach(function(e) {
					c[e] = r.def(JSON.stringify(A[e]));
				}), e.invoke = function(n, r) {
					switch (r.type) {
						case fa:
							var i = [
								"this",
								a.context,
								a.props,
								e.batchId
							];
							return n.def(t(r.data), ".call(", i.slice(0, Math.max(r.data.length + 1, 4)), ")");
						case pa: return n.def(a.props, r.data);
						case ma: return n.def(a.context, r.data);
						case ha: return n.def("this", r.data);
						case ga: return r.data.append(e, n), r.data.ref;
						case _a: return r.data.toString();
						case va: return r.data.map(function(t) {
							return e.invoke(n, t);
						});
					}
				}, e.attribCache = {};
				var l = {};
				return e.scopeAttrib = function(e) {
					var r = n.id(e);
					if (r in l) return l[r];
					var i = u.scope[r];
					return i || (i = u.scope[r] = new g()), l[r] = t(i);
				}, e;
			}
			function N(e) {
				var t = e.static, n = e.dynamic, r;
				if (Ka in t) {
					var i = !!t[Ka];
					r = hs(function(e, t) {
						return i;
					}), r.enable = i;
				} else if (Ka in n) {
					var a = n[Ka];
					r = gs(a, function(e, t) {
						return e.invoke(t, a);
					});
				}
				return r;
			}
			function P(e, t) {
				var n = e.static, r = e.dynamic;
				if (qa in n) {
					var i = n[qa];
					return i ? (i = c.getFramebuffer(i), K.command(i, "invalid framebuffer object"), hs(function(e, t) {
						var n = e.link(i), r = e.shared;
						t.set(r.framebuffer, ".next", n);
						var a = r.context;
						return t.set(a, "." + ro, n + ".width"), t.set(a, "." + io, n + ".height"), n;
					})) : hs(function(e, t) {
						var n = e.shared;
						t.set(n.framebuffer, ".next", "null");
						var r = n.context;
						return t.set(r, "." + ro, r + "." + co), t.set(r, "." + io, r + "." + lo), "null";
					});
				}
				if (qa in r) {
					var a = r[qa];
					return gs(a, function(e, t) {
						var n = e.invoke(t, a), r = e.shared, i = r.framebuffer, o = t.def(i, ".getFramebuffer(", n, ")");
						K.optional(function() {
							e.assert(t, "!" + n + "||" + o, "invalid framebuffer object");
						}), t.set(i, ".next", o);
						var s = r.context;
						return t.set(s, "." + ro, o + "?" + o + ".width:" + s + "." + co), t.set(s, "." + io, o + "?" + o + ".height:" + s + "." + lo), o;
					});
				}
				return null;
			}
			function F(e, t, n) {
				var r = e.static, i = e.dynamic;
				function a(e) {
					if (e in r) {
						var a = r[e];
						K.commandType(a, "object", "invalid " + e, n.commandStr);
						var o = !0, s = a.x | 0, c = a.y | 0, l, u;
						return "width" in a ? (l = a.width | 0, K.command(l >= 0, "invalid " + e, n.commandStr)) : o = !1, "height" in a ? (u = a.height | 0, K.command(u >= 0, "invalid " + e, n.commandStr)) : o = !1, new ps(!o && t && t.thisDep, !o && t && t.contextDep, !o && t && t.propDep, function(e, t) {
							var n = e.shared.context, r = l;
							"width" in a || (r = t.def(n, ".", ro, "-", s));
							var i = u;
							return "height" in a || (i = t.def(n, ".", io, "-", c)), [
								s,
								c,
								r,
								i
							];
						});
					}
					if (e in i) {
						var d = i[e], f = gs(d, function(t, n) {
							var r = t.invoke(n, d);
							K.optional(function() {
								t.assert(n, r + "&&typeof " + r + "===\"object\"", "invalid " + e);
							});
							var i = t.shared.context, a = n.def(r, ".x|0"), o = n.def(r, ".y|0"), s = n.def("\"width\" in ", r, "?", r, ".width|0:", "(", i, ".", ro, "-", a, ")"), c = n.def("\"height\" in ", r, "?", r, ".height|0:", "(", i, ".", io, "-", o, ")");
							return K.optional(function() {
								t.assert(n, s + ">=0&&" + c + ">=0", "invalid " + e);
							}), [
								a,
								o,
								s,
								c
							];
						});
						return t && (f.thisDep = f.thisDep || t.thisDep, f.contextDep = f.contextDep || t.contextDep, f.propDep = f.propDep || t.propDep), f;
					}
					return t ? new ps(t.thisDep, t.contextDep, t.propDep, function(e, t) {
						var n = e.shared.context;
						return [
							0,
							0,
							t.def(n, ".", ro),
							t.def(n, ".", io)
						];
					}) : null;
				}
				var o = a(Ga);
				if (o) {
					var s = o;
					o = new ps(o.thisDep, o.contextDep, o.propDep, function(e, t) {
						var n = s.append(e, t), r = e.shared.context;
						return t.set(r, "." + ao, n[2]), t.set(r, "." + oo, n[3]), n;
					});
				}
				return {
					viewport: o,
					scissor_box: a(Wa)
				};
			}
			function ee(e, t) {
				var n = e.static;
				if (typeof n[Ya] == "string" && typeof n[Ja] == "string") {
					if (Object.keys(t.dynamic).length > 0) return null;
					var r = t.static, i = Object.keys(r);
					if (i.length > 0 && typeof r[i[0]] == "number") {
						for (var a = [], o = 0; o < i.length; ++o) K(typeof r[i[o]] == "number", "must specify all vertex attribute locations when using vaos"), a.push([r[i[o]] | 0, i[o]]);
						return a;
					}
				}
				return null;
			}
			function te(e, t, r) {
				var i = e.static, a = e.dynamic;
				function o(e) {
					if (e in i) {
						var t = n.id(i[e]);
						K.optional(function() {
							d.shader(ls[e], t, K.guessCommand());
						});
						var r = hs(function() {
							return t;
						});
						return r.id = t, r;
					}
					if (e in a) {
						var o = a[e];
						return gs(o, function(t, n) {
							var r = t.invoke(n, o), i = n.def(t.shared.strings, ".id(", r, ")");
							return K.optional(function() {
								n(t.shared.shader, ".shader(", ls[e], ",", i, ",", t.command, ");");
							}), i;
						});
					}
					return null;
				}
				var s = o(Ya), c = o(Ja), l = null, u;
				return ms(s) && ms(c) ? (l = d.program(c.id, s.id, null, r), u = hs(function(e, t) {
					return e.link(l);
				})) : u = new ps(s && s.thisDep || c && c.thisDep, s && s.contextDep || c && c.contextDep, s && s.propDep || c && c.propDep, function(e, t) {
					var n = e.shared.shader, r = s ? s.append(e, t) : t.def(n, ".", Ya), i = c ? c.append(e, t) : t.def(n, ".", Ja), a = n + ".program(" + i + "," + r;
					return K.optional(function() {
						a += "," + e.command;
					}), t.def(a + ")");
				}), {
					frag: s,
					vert: c,
					progVar: u,
					program: l
				};
			}
			function I(e, t) {
				var n = e.static, r = e.dynamic, i = {}, a = !1;
				function s() {
					if (eo in n) {
						var e = n[eo];
						return e !== null && u.getVAO(e) === null && (e = u.createVAO(e)), a = !0, i.vao = e, hs(function(t) {
							var n = u.getVAO(e);
							return n ? t.link(n) : "null";
						});
					}
					if (eo in r) {
						a = !0;
						var t = r[eo];
						return gs(t, function(e, n) {
							var r = e.invoke(n, t);
							return n.def(e.shared.vao + ".getVAO(" + r + ")");
						});
					}
					return null;
				}
				var c = s(), l = !1;
				function d() {
					if (Xa in n) {
						var e = n[Xa];
						if (i.elements = e, ds(e)) {
							var s = i.elements = o.create(e, !0);
							e = o.getElements(s), l = !0;
						} else e && (e = o.getElements(e), l = !0, K.command(e, "invalid elements", t.commandStr));
						var u = hs(function(t, n) {
							if (e) {
								var r = t.link(e);
								return t.ELEMENTS = r, r;
							}
							return t.ELEMENTS = null, null;
						});
						return u.value = e, u;
					}
					if (Xa in r) {
						l = !0;
						var d = r[Xa];
						return gs(d, function(e, t) {
							var n = e.shared, r = n.isBufferArgs, i = n.elements, a = e.invoke(t, d), o = t.def("null"), s = t.def(r, "(", a, ")"), c = e.cond(s).then(o, "=", i, ".createStream(", a, ");").else(o, "=", i, ".getElements(", a, ");");
							return K.optional(function() {
								e.assert(c.else, "!" + a + "||" + o, "invalid elements");
							}), t.entry(c), t.exit(e.cond(s).then(i, ".destroyStream(", o, ");")), e.ELEMENTS = o, o;
						});
					}
					return a ? new ps(c.thisDep, c.contextDep, c.propDep, function(e, t) {
						return t.def(e.shared.vao + ".currentVAO?" + e.shared.elements + ".getElements(" + e.shared.vao + ".currentVAO.elements):null");
					}) : null;
				}
				var f = d();
				function p() {
					if (Za in n) {
						var e = n[Za];
						return i.primitive = e, K.commandParameter(e, Yt, "invalid primitve", t.commandStr), hs(function(t, n) {
							return Yt[e];
						});
					}
					if (Za in r) {
						var o = r[Za];
						return gs(o, function(e, t) {
							var n = e.constants.primTypes, r = e.invoke(t, o);
							return K.optional(function() {
								e.assert(t, r + " in " + n, "invalid primitive, must be one of " + Object.keys(Yt));
							}), t.def(n, "[", r, "]");
						});
					}
					return l ? ms(f) ? f.value ? hs(function(e, t) {
						return t.def(e.ELEMENTS, ".primType");
					}) : hs(function() {
						return Wo;
					}) : new ps(f.thisDep, f.contextDep, f.propDep, function(e, t) {
						var n = e.ELEMENTS;
						return t.def(n, "?", n, ".primType:", Wo);
					}) : a ? new ps(c.thisDep, c.contextDep, c.propDep, function(e, t) {
						return t.def(e.shared.vao + ".currentVAO?" + e.shared.vao + ".currentVAO.primitive:" + Wo);
					}) : null;
				}
				function m(e, o) {
					if (e in n) {
						var s = n[e] | 0;
						return o ? i.offset = s : i.instances = s, K.command(!o || s >= 0, "invalid " + e, t.commandStr), hs(function(e, t) {
							return o && (e.OFFSET = s), s;
						});
					}
					if (e in r) {
						var u = r[e];
						return gs(u, function(t, n) {
							var r = t.invoke(n, u);
							return o && (t.OFFSET = r, K.optional(function() {
								t.assert(n, r + ">=0", "invalid " + e);
							})), r;
						});
					}
					if (o) {
						if (l) return hs(function(e, t) {
							return e.OFFSET = 0, 0;
						});
						if (a) return new ps(c.thisDep, c.contextDep, c.propDep, function(e, t) {
							return t.def(e.shared.vao + ".currentVAO?" + e.shared.vao + ".currentVAO.offset:0");
						});
					} else if (a) return new ps(c.thisDep, c.contextDep, c.propDep, function(e, t) {
						return t.def(e.shared.vao + ".currentVAO?" + e.shared.vao + ".currentVAO.instances:-1");
					});
					return null;
				}
				var h = m(Qa, !0);
				function g() {
					if ($ in n) {
						var e = n[$] | 0;
						return i.count = e, K.command(typeof e == "number" && e >= 0, "invalid vertex count", t.commandStr), hs(function() {
							return e;
						});
					}
					if ($ in r) {
						var o = r[$];
						return gs(o, function(e, t) {
							var n = e.invoke(t, o);
							return K.optional(function() {
								e.assert(t, "typeof " + n + "===\"number\"&&" + n + ">=0&&" + n + "===(" + n + "|0)", "invalid vertex count");
							}), n;
						});
					}
					if (l) {
						if (ms(f)) {
							if (f) return h ? new ps(h.thisDep, h.contextDep, h.propDep, function(e, t) {
								var n = t.def(e.ELEMENTS, ".vertCount-", e.OFFSET);
								return K.optional(function() {
									e.assert(t, n + ">=0", "invalid vertex offset/element buffer too small");
								}), n;
							}) : hs(function(e, t) {
								return t.def(e.ELEMENTS, ".vertCount");
							});
							var s = hs(function() {
								return -1;
							});
							return K.optional(function() {
								s.MISSING = !0;
							}), s;
						}
						var u = new ps(f.thisDep || h.thisDep, f.contextDep || h.contextDep, f.propDep || h.propDep, function(e, t) {
							var n = e.ELEMENTS;
							return e.OFFSET ? t.def(n, "?", n, ".vertCount-", e.OFFSET, ":-1") : t.def(n, "?", n, ".vertCount:-1");
						});
						return K.optional(function() {
							u.DYNAMIC = !0;
						}), u;
					}
					return a ? new ps(c.thisDep, c.contextDep, c.propDep, function(e, t) {
						return t.def(e.shared.vao, ".currentVAO?", e.shared.vao, ".currentVAO.count:-1");
					}) : null;
				}
				return {
					elements: f,
					primitive: p(),
					count: g(),
					instances: m($a, !1),
					offset: h,
					vao: c,
					vaoActive: a,
					elementsActive: l,
					static: i
				};
			}
			function L(e, t) {
				var n = e.static, r = e.dynamic, a = {};
				return C.forEach(function(e) {
					var o = E(e);
					function s(t, i) {
						if (e in n) {
							var s = t(n[e]);
							a[o] = hs(function() {
								return s;
							});
						} else if (e in r) {
							var c = r[e];
							a[o] = gs(c, function(e, t) {
								return i(e, t, e.invoke(t, c));
							});
						}
					}
					switch (e) {
						case ka:
						case ba:
						case ya:
						case Ra:
						case wa:
						case Ua:
						case Na:
						case Fa:
						case Ia:
						case Da: return s(function(n) {
							return K.commandType(n, "boolean", e, t.commandStr), n;
						}, function(t, n, r) {
							return K.optional(function() {
								t.assert(n, "typeof " + r + "===\"boolean\"", "invalid flag " + e, t.commandStr);
							}), r;
						});
						case Ta: return s(function(n) {
							return K.commandParameter(n, ss, "invalid " + e, t.commandStr), ss[n];
						}, function(t, n, r) {
							var i = t.constants.compareFuncs;
							return K.optional(function() {
								t.assert(n, r + " in " + i, "invalid " + e + ", must be one of " + Object.keys(ss));
							}), n.def(i, "[", r, "]");
						});
						case Ea: return s(function(e) {
							return K.command(mn(e) && e.length === 2 && typeof e[0] == "number" && typeof e[1] == "number" && e[0] <= e[1], "depth range is 2d array", t.commandStr), e;
						}, function(e, t, n) {
							return K.optional(function() {
								e.assert(t, e.shared.isArrayLike + "(" + n + ")&&" + n + ".length===2&&typeof " + n + "[0]===\"number\"&&typeof " + n + "[1]===\"number\"&&" + n + "[0]<=" + n + "[1]", "depth range must be a 2d array");
							}), [t.def("+", n, "[0]"), t.def("+", n, "[1]")];
						});
						case Ca: return s(function(e) {
							K.commandType(e, "object", "blend.func", t.commandStr);
							var n = "srcRGB" in e ? e.srcRGB : e.src, r = "srcAlpha" in e ? e.srcAlpha : e.src, i = "dstRGB" in e ? e.dstRGB : e.dst, a = "dstAlpha" in e ? e.dstAlpha : e.dst;
							return K.commandParameter(n, as, o + ".srcRGB", t.commandStr), K.commandParameter(r, as, o + ".srcAlpha", t.commandStr), K.commandParameter(i, as, o + ".dstRGB", t.commandStr), K.commandParameter(a, as, o + ".dstAlpha", t.commandStr), K.command(os.indexOf(n + ", " + i) === -1, "unallowed blending combination (srcRGB, dstRGB) = (" + n + ", " + i + ")", t.commandStr), [
								as[n],
								as[i],
								as[r],
								as[a]
							];
						}, function(t, n, r) {
							var i = t.constants.blendFuncs;
							K.optional(function() {
								t.assert(n, r + "&&typeof " + r + "===\"object\"", "invalid blend func, must be an object");
							});
							function a(a, o) {
								var s = n.def("\"", a, o, "\" in ", r, "?", r, ".", a, o, ":", r, ".", a);
								return K.optional(function() {
									t.assert(n, s + " in " + i, "invalid " + e + "." + a + o + ", must be one of " + Object.keys(as));
								}), s;
							}
							var o = a("src", "RGB"), s = a("dst", "RGB");
							K.optional(function() {
								var e = t.constants.invalidBlendCombinations;
								t.assert(n, e + ".indexOf(" + o + "+\", \"+" + s + ") === -1 ", "unallowed blending combination for (srcRGB, dstRGB)");
							});
							var c = n.def(i, "[", o, "]"), l = n.def(i, "[", a("src", "Alpha"), "]");
							return [
								c,
								n.def(i, "[", s, "]"),
								l,
								n.def(i, "[", a("dst", "Alpha"), "]")
							];
						});
						case Sa: return s(function(n) {
							if (typeof n == "string") return K.commandParameter(n, _, "invalid " + e, t.commandStr), [_[n], _[n]];
							if (typeof n == "object") return K.commandParameter(n.rgb, _, e + ".rgb", t.commandStr), K.commandParameter(n.alpha, _, e + ".alpha", t.commandStr), [_[n.rgb], _[n.alpha]];
							K.commandRaise("invalid blend.equation", t.commandStr);
						}, function(t, n, r) {
							var i = t.constants.blendEquations, a = n.def(), o = n.def(), s = t.cond("typeof ", r, "===\"string\"");
							return K.optional(function() {
								function n(e, n, r) {
									t.assert(e, r + " in " + i, "invalid " + n + ", must be one of " + Object.keys(_));
								}
								n(s.then, e, r), t.assert(s.else, r + "&&typeof " + r + "===\"object\"", "invalid " + e), n(s.else, e + ".rgb", r + ".rgb"), n(s.else, e + ".alpha", r + ".alpha");
							}), s.then(a, "=", o, "=", i, "[", r, "];"), s.else(a, "=", i, "[", r, ".rgb];", o, "=", i, "[", r, ".alpha];"), n(s), [a, o];
						});
						case xa: return s(function(e) {
							return K.command(mn(e) && e.length === 4, "blend.color must be a 4d array", t.commandStr), je(4, function(t) {
								return +e[t];
							});
						}, function(e, t, n) {
							return K.optional(function() {
								e.assert(t, e.shared.isArrayLike + "(" + n + ")&&" + n + ".length===4", "blend.color must be a 4d array");
							}), je(4, function(e) {
								return t.def("+", n, "[", e, "]");
							});
						});
						case za: return s(function(e) {
							return K.commandType(e, "number", o, t.commandStr), e | 0;
						}, function(e, t, n) {
							return K.optional(function() {
								e.assert(t, "typeof " + n + "===\"number\"", "invalid stencil.mask");
							}), t.def(n, "|0");
						});
						case Ba: return s(function(n) {
							K.commandType(n, "object", o, t.commandStr);
							var r = n.cmp || "keep", i = n.ref || 0, a = "mask" in n ? n.mask : -1;
							return K.commandParameter(r, ss, e + ".cmp", t.commandStr), K.commandType(i, "number", e + ".ref", t.commandStr), K.commandType(a, "number", e + ".mask", t.commandStr), [
								ss[r],
								i,
								a
							];
						}, function(e, t, n) {
							var r = e.constants.compareFuncs;
							return K.optional(function() {
								function i() {
									e.assert(t, Array.prototype.join.call(arguments, ""), "invalid stencil.func");
								}
								i(n + "&&typeof ", n, "===\"object\""), i("!(\"cmp\" in ", n, ")||(", n, ".cmp in ", r, ")");
							}), [
								t.def("\"cmp\" in ", n, "?", r, "[", n, ".cmp]", ":", Qo),
								t.def(n, ".ref|0"),
								t.def("\"mask\" in ", n, "?", n, ".mask|0:-1")
							];
						});
						case Va:
						case Ha: return s(function(n) {
							K.commandType(n, "object", o, t.commandStr);
							var r = n.fail || "keep", i = n.zfail || "keep", a = n.zpass || "keep";
							return K.commandParameter(r, cs, e + ".fail", t.commandStr), K.commandParameter(i, cs, e + ".zfail", t.commandStr), K.commandParameter(a, cs, e + ".zpass", t.commandStr), [
								e === Ha ? Ko : Go,
								cs[r],
								cs[i],
								cs[a]
							];
						}, function(t, n, r) {
							var i = t.constants.stencilOps;
							K.optional(function() {
								t.assert(n, r + "&&typeof " + r + "===\"object\"", "invalid " + e);
							});
							function a(a) {
								return K.optional(function() {
									t.assert(n, "!(\"" + a + "\" in " + r + ")||(" + r + "." + a + " in " + i + ")", "invalid " + e + "." + a + ", must be one of " + Object.keys(cs));
								}), n.def("\"", a, "\" in ", r, "?", i, "[", r, ".", a, "]:", Qo);
							}
							return [
								e === Ha ? Ko : Go,
								a("fail"),
								a("zfail"),
								a("zpass")
							];
						});
						case Pa: return s(function(e) {
							K.commandType(e, "object", o, t.commandStr);
							var n = e.factor | 0, r = e.units | 0;
							return K.commandType(n, "number", o + ".factor", t.commandStr), K.commandType(r, "number", o + ".units", t.commandStr), [n, r];
						}, function(t, n, r) {
							return K.optional(function() {
								t.assert(n, r + "&&typeof " + r + "===\"object\"", "invalid " + e);
							}), [n.def(r, ".factor|0"), n.def(r, ".units|0")];
						});
						case Aa: return s(function(e) {
							var n = 0;
							return e === "front" ? n = Go : e === "back" && (n = Ko), K.command(!!n, o, t.commandStr), n;
						}, function(e, t, n) {
							return K.optional(function() {
								e.assert(t, n + "===\"front\"||" + n + "===\"back\"", "invalid cull.face");
							}), t.def(n, "===\"front\"?", Go, ":", Ko);
						});
						case Ma: return s(function(e) {
							return K.command(typeof e == "number" && e >= i.lineWidthDims[0] && e <= i.lineWidthDims[1], "invalid line width, must be a positive number between " + i.lineWidthDims[0] + " and " + i.lineWidthDims[1], t.commandStr), e;
						}, function(e, t, n) {
							return K.optional(function() {
								e.assert(t, "typeof " + n + "===\"number\"&&" + n + ">=" + i.lineWidthDims[0] + "&&" + n + "<=" + i.lineWidthDims[1], "invalid line width");
							}), n;
						});
						case ja: return s(function(e) {
							return K.commandParameter(e, us, o, t.commandStr), us[e];
						}, function(e, t, n) {
							return K.optional(function() {
								e.assert(t, n + "===\"cw\"||" + n + "===\"ccw\"", "invalid frontFace, must be one of cw,ccw");
							}), t.def(n + "===\"cw\"?" + qo + ":" + Jo);
						});
						case Oa: return s(function(e) {
							return K.command(mn(e) && e.length === 4, "color.mask must be length 4 array", t.commandStr), e.map(function(e) {
								return !!e;
							});
						}, function(e, t, n) {
							return K.optional(function() {
								e.assert(t, e.shared.isArrayLike + "(" + n + ")&&" + n + ".length===4", "invalid color.mask");
							}), je(4, function(e) {
								return "!!" + n + "[" + e + "]";
							});
						});
						case La: return s(function(e) {
							K.command(typeof e == "object" && e, o, t.commandStr);
							var n = "value" in e ? e.value : 1, r = !!e.invert;
							return K.command(typeof n == "number" && n >= 0 && n <= 1, "sample.coverage.value must be a number between 0 and 1", t.commandStr), [n, r];
						}, function(e, t, n) {
							return K.optional(function() {
								e.assert(t, n + "&&typeof " + n + "===\"object\"", "invalid sample.coverage");
							}), [t.def("\"value\" in ", n, "?+", n, ".value:1"), t.def("!!", n, ".invert")];
						});
					}
				}), a;
			}
			function R(e, t) {
				var n = e.static, r = e.dynamic, i = {};
				return Object.keys(n).forEach(function(e) {
					var r = n[e], a;
					if (typeof r == "number" || typeof r == "boolean") a = hs(function() {
						return r;
					});
					else if (typeof r == "function") {
						var o = r._reglType;
						o === "texture2d" || o === "textureCube" ? a = hs(function(e) {
							return e.link(r);
						}) : o === "framebuffer" || o === "framebufferCube" ? (K.command(r.color.length > 0, "missing color attachment for framebuffer sent to uniform \"" + e + "\"", t.commandStr), a = hs(function(e) {
							return e.link(r.color[0]);
						})) : K.commandRaise("invalid data for uniform \"" + e + "\"", t.commandStr);
					} else mn(r) ? a = hs(function(t) {
						return t.global.def("[", je(r.length, function(n) {
							return K.command(typeof r[n] == "number" || typeof r[n] == "boolean", "invalid uniform " + e, t.commandStr), r[n];
						}), "]");
					}) : K.commandRaise("invalid or missing data for uniform \"" + e + "\"", t.commandStr);
					a.value = r, i[e] = a;
				}), Object.keys(r).forEach(function(e) {
					var t = r[e];
					i[e] = gs(t, function(e, n) {
						return e.invoke(n, t);
					});
				}), i;
			}
			function z(e, t) {
				var r = e.static, i = e.dynamic, o = {};
				return Object.keys(r).forEach(function(e) {
					var i = r[e], s = n.id(e), c = new g();
					if (ds(i)) c.state = ua, c.buffer = a.getBuffer(a.create(i, fo, !1, !0)), c.type = 0;
					else {
						var l = a.getBuffer(i);
						if (l) c.state = ua, c.buffer = l, c.type = 0;
						else if (K.command(typeof i == "object" && i, "invalid data for attribute " + e, t.commandStr), "constant" in i) {
							var u = i.constant;
							c.buffer = "null", c.state = da, typeof u == "number" ? c.x = u : (K.command(mn(u) && u.length > 0 && u.length <= 4, "invalid constant for attribute " + e, t.commandStr), ca.forEach(function(e, t) {
								t < u.length && (c[e] = u[t]);
							}));
						} else {
							l = ds(i.buffer) ? a.getBuffer(a.create(i.buffer, fo, !1, !0)) : a.getBuffer(i.buffer), K.command(!!l, "missing buffer for attribute \"" + e + "\"", t.commandStr);
							var d = i.offset | 0;
							K.command(d >= 0, "invalid offset for attribute \"" + e + "\"", t.commandStr);
							var f = i.stride | 0;
							K.command(f >= 0 && f < 256, "invalid stride for attribute \"" + e + "\", must be integer betweeen [0, 255]", t.commandStr);
							var p = i.size | 0;
							K.command(!("size" in i) || p > 0 && p <= 4, "invalid size for attribute \"" + e + "\", must be 1,2,3,4", t.commandStr);
							var m = !!i.normalized, h = 0;
							"type" in i && (K.commandParameter(i.type, It, "invalid type for attribute " + e, t.commandStr), h = It[i.type]);
							var _ = i.divisor | 0;
							K.optional(function() {
								"divisor" in i && (K.command(_ === 0 || v, "cannot specify divisor for attribute \"" + e + "\", instancing not supported", t.commandStr), K.command(_ >= 0, "invalid divisor for attribute \"" + e + "\"", t.commandStr));
								var n = t.commandStr, r = [
									"buffer",
									"offset",
									"divisor",
									"normalized",
									"type",
									"size",
									"stride"
								];
								Object.keys(i).forEach(function(t) {
									K.command(r.indexOf(t) >= 0, "unknown parameter \"" + t + "\" for attribute pointer \"" + e + "\" (valid parameters are " + r + ")", n);
								});
							}), c.buffer = l, c.state = ua, c.size = p, c.normalized = m, c.type = h || l.dtype, c.offset = d, c.stride = f, c.divisor = _;
						}
					}
					o[e] = hs(function(e, t) {
						var n = e.attribCache;
						if (s in n) return n[s];
						var r = { isStream: !1 };
						return Object.keys(c).forEach(function(e) {
							r[e] = c[e];
						}), c.buffer && (r.buffer = e.link(c.buffer), r.type = r.type || r.buffer + ".dtype"), n[s] = r, r;
					});
				}), Object.keys(i).forEach(function(e) {
					var t = i[e];
					function n(n, r) {
						var i = n.invoke(r, t), a = n.shared, o = n.constants, s = a.isBufferArgs, c = a.buffer;
						K.optional(function() {
							n.assert(r, i + "&&(typeof " + i + "===\"object\"||typeof " + i + "===\"function\")&&(" + s + "(" + i + ")||" + c + ".getBuffer(" + i + ")||" + c + ".getBuffer(" + i + ".buffer)||" + s + "(" + i + ".buffer)||(\"constant\" in " + i + "&&(typeof " + i + ".constant===\"number\"||" + a.isArrayLike + "(" + i + ".constant))))", "invalid dynamic attribute \"" + e + "\"");
						});
						var l = { isStream: r.def(!1) }, u = new g();
						u.state = ua, Object.keys(u).forEach(function(e) {
							l[e] = r.def("" + u[e]);
						});
						var d = l.buffer, f = l.type;
						r("if(", s, "(", i, ")){", l.isStream, "=true;", d, "=", c, ".createStream(", fo, ",", i, ");", f, "=", d, ".dtype;", "}else{", d, "=", c, ".getBuffer(", i, ");", "if(", d, "){", f, "=", d, ".dtype;", "}else if(\"constant\" in ", i, "){", l.state, "=", da, ";", "if(typeof " + i + ".constant === \"number\"){", l[ca[0]], "=", i, ".constant;", ca.slice(1).map(function(e) {
							return l[e];
						}).join("="), "=0;", "}else{", ca.map(function(e, t) {
							return l[e] + "=" + i + ".constant.length>" + t + "?" + i + ".constant[" + t + "]:0;";
						}).join(""), "}}else{", "if(", s, "(", i, ".buffer)){", d, "=", c, ".createStream(", fo, ",", i, ".buffer);", "}else{", d, "=", c, ".getBuffer(", i, ".buffer);", "}", f, "=\"type\" in ", i, "?", o.glTypes, "[", i, ".type]:", d, ".dtype;", l.normalized, "=!!", i, ".normalized;");
						function p(e) {
							r(l[e], "=", i, ".", e, "|0;");
						}
						return p("size"), p("offset"), p("stride"), p("divisor"), r("}}"), r.exit("if(", l.isStream, "){", c, ".destroyStream(", d, ");", "}"), l;
					}
					o[e] = gs(t, n);
				}), o;
			}
			function ne(e) {
				var t = e.static, n = e.dynamic, r = {};
				return Object.keys(t).forEach(function(e) {
					var n = t[e];
					r[e] = hs(function(e, t) {
						return typeof n == "number" || typeof n == "boolean" ? "" + n : e.link(n);
					});
				}), Object.keys(n).forEach(function(e) {
					var t = n[e];
					r[e] = gs(t, function(e, n) {
						return e.invoke(n, t);
					});
				}), r;
			}
			function B(e, t, n, i, a) {
				var o = e.static, s = e.dynamic;
				K.optional(function() {
					var e = [
						qa,
						Ja,
						Ya,
						Xa,
						Za,
						Qa,
						$,
						$a,
						Ka,
						eo
					].concat(C);
					function t(t) {
						Object.keys(t).forEach(function(t) {
							K.command(e.indexOf(t) >= 0, "unknown parameter \"" + t + "\"", a.commandStr);
						});
					}
					t(o), t(s);
				});
				var c = ee(e, t), l = P(e, a), d = F(e, l, a), f = I(e, a), p = L(e, a), m = te(e, a, c);
				function h(e) {
					var t = d[e];
					t && (p[e] = t);
				}
				h(Ga), h(E(Wa));
				var g = {
					framebuffer: l,
					draw: f,
					shader: m,
					state: p,
					dirty: Object.keys(p).length > 0,
					scopeVAO: null,
					drawVAO: null,
					useVAO: !1,
					attributes: {}
				};
				if (g.profile = N(e, a), g.uniforms = R(n, a), g.drawVAO = g.scopeVAO = f.vao, !g.drawVAO && m.program && !c && r.angle_instanced_arrays && f.static.elements) {
					var _ = !0, v = m.program.attributes.map(function(e) {
						var n = t.static[e];
						return _ = _ && !!n, n;
					});
					if (_ && v.length > 0) {
						var y = u.getVAO(u.createVAO({
							attributes: v,
							elements: f.static.elements
						}));
						g.drawVAO = new ps(null, null, null, function(e, t) {
							return e.link(y);
						}), g.useVAO = !0;
					}
				}
				return c ? g.useVAO = !0 : g.attributes = z(t, a), g.context = ne(i, a), g;
			}
			function re(e, t, n) {
				var r = e.shared.context, i = e.scope();
				Object.keys(n).forEach(function(a) {
					t.save(r, "." + a);
					var o = n[a].append(e, t);
					Array.isArray(o) ? i(r, ".", a, "=[", o.join(), "];") : i(r, ".", a, "=", o, ";");
				}), t(i);
			}
			function V(e, t, n, r) {
				var i = e.shared, a = i.gl, o = i.framebuffer, s;
				y && (s = t.def(i.extensions, ".webgl_draw_buffers"));
				var c = e.constants, l = c.drawBuffer, u = c.backBuffer, d = n ? n.append(e, t) : t.def(o, ".next");
				r || t("if(", d, "!==", o, ".cur){"), t("if(", d, "){", a, ".bindFramebuffer(", rs, ",", d, ".framebuffer);"), y && t(s, ".drawBuffersWEBGL(", l, "[", d, ".colorAttachments.length]);"), t("}else{", a, ".bindFramebuffer(", rs, ",null);"), y && t(s, ".drawBuffersWEBGL(", u, ");"), t("}", o, ".cur=", d, ";"), r || t("}");
			}
			function H(e, t, n) {
				var r = e.shared, i = r.gl, a = e.current, o = e.next, s = r.current, c = r.next, l = e.cond(s, ".dirty");
				C.forEach(function(t) {
					var r = E(t);
					if (!(r in n.state)) {
						var u, d;
						if (r in o) {
							u = o[r], d = a[r];
							var f = je(x[r].length, function(e) {
								return l.def(u, "[", e, "]");
							});
							l(e.cond(f.map(function(e, t) {
								return e + "!==" + d + "[" + t + "]";
							}).join("||")).then(i, ".", T[r], "(", f, ");", f.map(function(e, t) {
								return d + "[" + t + "]=" + e;
							}).join(";"), ";"));
						} else {
							u = l.def(c, ".", r);
							var p = e.cond(u, "!==", s, ".", r);
							l(p), r in w ? p(e.cond(u).then(i, ".enable(", w[r], ");").else(i, ".disable(", w[r], ");"), s, ".", r, "=", u, ";") : p(i, ".", T[r], "(", u, ");", s, ".", r, "=", u, ";");
						}
					}
				}), Object.keys(n.state).length === 0 && l(s, ".dirty=false;"), t(l);
			}
			function ie(e, t, n, r) {
				var i = e.shared, a = e.current, o = i.current, s = i.gl;
				fs(Object.keys(n)).forEach(function(i) {
					var c = n[i];
					if (!r || r(c)) {
						var l = c.append(e, t);
						if (w[i]) {
							var u = w[i];
							ms(c) ? l ? t(s, ".enable(", u, ");") : t(s, ".disable(", u, ");") : t(e.cond(l).then(s, ".enable(", u, ");").else(s, ".disable(", u, ");")), t(o, ".", i, "=", l, ";");
						} else if (mn(l)) {
							var d = a[i];
							t(s, ".", T[i], "(", l, ");", l.map(function(e, t) {
								return d + "[" + t + "]=" + e;
							}).join(";"), ";");
						} else t(s, ".", T[i], "(", l, ");", o, ".", i, "=", l, ";");
					}
				});
			}
			function ae(e, t) {
				v && (e.instancing = t.def(e.shared.extensions, ".angle_instanced_arrays"));
			}
			function oe(e, t, n, r, i) {
				var a = e.shared, o = e.stats, s = a.current, c = a.timer, l = n.profile;
				function u() {
					return typeof performance > "u" ? "Date.now()" : "performance.now()";
				}
				var d, f;
				function p(e) {
					d = t.def(), e(d, "=", u(), ";"), typeof i == "string" ? e(o, ".count+=", i, ";") : e(o, ".count++;"), m && (r ? (f = t.def(), e(f, "=", c, ".getNumPendingQueries();")) : e(c, ".beginQuery(", o, ");"));
				}
				function h(e) {
					e(o, ".cpuTime+=", u(), "-", d, ";"), m && (r ? e(c, ".pushScopeStats(", f, ",", c, ".getNumPendingQueries(),", o, ");") : e(c, ".endQuery();"));
				}
				function g(e) {
					var n = t.def(s, ".profile");
					t(s, ".profile=", e, ";"), t.exit(s, ".profile=", n, ";");
				}
				var _;
				if (l) {
					if (ms(l)) {
						l.enable ? (p(t), h(t.exit), g("true")) : g("false");
						return;
					}
					_ = l.append(e, t), g(_);
				} else _ = t.def(s, ".profile");
				var v = e.block();
				p(v), t("if(", _, "){", v, "}");
				var y = e.block();
				h(y), t.exit("if(", _, "){", y, "}");
			}
			function U(e, t, n, r, i) {
				var a = e.shared;
				function o(e) {
					switch (e) {
						case Oo:
						case Mo:
						case Io: return 2;
						case ko:
						case No:
						case Lo: return 3;
						case Ao:
						case Po:
						case Ro: return 4;
						default: return 1;
					}
				}
				function s(n, r, i) {
					var o = a.gl, s = t.def(n, ".location"), c = t.def(a.attributes, "[", s, "]"), l = i.state, u = i.buffer, d = [
						i.x,
						i.y,
						i.z,
						i.w
					], f = [
						"buffer",
						"normalized",
						"offset",
						"stride"
					];
					function p() {
						t("if(!", c, ".buffer){", o, ".enableVertexAttribArray(", s, ");}");
						var n = i.type, a = i.size ? t.def(i.size, "||", r) : r;
						if (t("if(", c, ".type!==", n, "||", c, ".size!==", a, "||", f.map(function(e) {
							return c + "." + e + "!==" + i[e];
						}).join("||"), "){", o, ".bindBuffer(", fo, ",", u, ".buffer);", o, ".vertexAttribPointer(", [
							s,
							a,
							n,
							i.normalized,
							i.stride,
							i.offset
						], ");", c, ".type=", n, ";", c, ".size=", a, ";", f.map(function(e) {
							return c + "." + e + "=" + i[e] + ";";
						}).join(""), "}"), v) {
							var l = i.divisor;
							t("if(", c, ".divisor!==", l, "){", e.instancing, ".vertexAttribDivisorANGLE(", [s, l], ");", c, ".divisor=", l, ";}");
						}
					}
					function m() {
						t("if(", c, ".buffer){", o, ".disableVertexAttribArray(", s, ");", c, ".buffer=null;", "}if(", ca.map(function(e, t) {
							return c + "." + e + "!==" + d[t];
						}).join("||"), "){", o, ".vertexAttrib4f(", s, ",", d, ");", ca.map(function(e, t) {
							return c + "." + e + "=" + d[t] + ";";
						}).join(""), "}");
					}
					l === ua ? p() : l === da ? m() : (t("if(", l, "===", ua, "){"), p(), t("}else{"), m(), t("}"));
				}
				r.forEach(function(r) {
					var a = r.name, c = n.attributes[a], l;
					if (c) {
						if (!i(c)) return;
						l = c.append(e, t);
					} else {
						if (!i(_s)) return;
						var u = e.scopeAttrib(a);
						K.optional(function() {
							e.assert(t, u + ".state", "missing attribute " + a);
						}), l = {}, Object.keys(new g()).forEach(function(e) {
							l[e] = t.def(u, ".", e);
						});
					}
					s(e.link(r), o(r.info.type), l);
				});
			}
			function W(e, t, r, i, a, o) {
				for (var s = e.shared, c = s.gl, l, u = 0; u < i.length; ++u) {
					var d = i[u], f = d.name, p = d.info.type, m = r.uniforms[f], h = e.link(d) + ".location", g;
					if (m) {
						if (!a(m)) continue;
						if (ms(m)) {
							var _ = m.value;
							if (K.command(_ != null, "missing uniform \"" + f + "\"", e.commandStr), p === Ho || p === Uo) {
								K.command(typeof _ == "function" && (p === Ho && (_._reglType === "texture2d" || _._reglType === "framebuffer") || p === Uo && (_._reglType === "textureCube" || _._reglType === "framebufferCube")), "invalid texture for uniform " + f, e.commandStr);
								var v = e.link(_._texture || _.color[0]._texture);
								t(c, ".uniform1i(", h, ",", v + ".bind());"), t.exit(v, ".unbind();");
							} else if (p === zo || p === Bo || p === Vo) {
								K.optional(function() {
									K.command(mn(_), "invalid matrix for uniform " + f, e.commandStr), K.command(p === zo && _.length === 4 || p === Bo && _.length === 9 || p === Vo && _.length === 16, "invalid length for matrix uniform " + f, e.commandStr);
								});
								var y = e.global.def("new Float32Array([" + Array.prototype.slice.call(_) + "])"), b = 2;
								p === Bo ? b = 3 : p === Vo && (b = 4), t(c, ".uniformMatrix", b, "fv(", h, ",false,", y, ");");
							} else {
								switch (p) {
									case Do:
										K.commandType(_, "number", "uniform " + f, e.commandStr), l = "1f";
										break;
									case Oo:
										K.command(mn(_) && _.length === 2, "uniform " + f, e.commandStr), l = "2f";
										break;
									case ko:
										K.command(mn(_) && _.length === 3, "uniform " + f, e.commandStr), l = "3f";
										break;
									case Ao:
										K.command(mn(_) && _.length === 4, "uniform " + f, e.commandStr), l = "4f";
										break;
									case Fo:
										K.commandType(_, "boolean", "uniform " + f, e.commandStr), l = "1i";
										break;
									case jo:
										K.commandType(_, "number", "uniform " + f, e.commandStr), l = "1i";
										break;
									case Io:
										K.command(mn(_) && _.length === 2, "uniform " + f, e.commandStr), l = "2i";
										break;
									case Mo:
										K.command(mn(_) && _.length === 2, "uniform " + f, e.commandStr), l = "2i";
										break;
									case Lo:
										K.command(mn(_) && _.length === 3, "uniform " + f, e.commandStr), l = "3i";
										break;
									case No:
										K.command(mn(_) && _.length === 3, "uniform " + f, e.commandStr), l = "3i";
										break;
									case Ro:
										K.command(mn(_) && _.length === 4, "uniform " + f, e.commandStr), l = "4i";
										break;
									case Po: K.command(mn(_) && _.length === 4, "uniform " + f, e.commandStr), l = "4i";
								}
								t(c, ".uniform", l, "(", h, ",", mn(_) ? Array.prototype.slice.call(_) : _, ");");
							}
							continue;
						}
						g = m.append(e, t);
					} else {
						if (!a(_s)) continue;
						g = t.def(s.uniforms, "[", n.id(f), "]");
					}
					p === Ho ? (K(!Array.isArray(g), "must specify a scalar prop for textures"), t("if(", g, "&&", g, "._reglType===\"framebuffer\"){", g, "=", g, ".color[0];", "}")) : p === Uo && (K(!Array.isArray(g), "must specify a scalar prop for cube maps"), t("if(", g, "&&", g, "._reglType===\"framebufferCube\"){", g, "=", g, ".color[0];", "}")), K.optional(function() {
						function n(n, r) {
							e.assert(t, n, "bad data or missing for uniform \"" + f + "\".  " + r);
						}
						function r(e) {
							K(!Array.isArray(g), "must not specify an array type for uniform"), n("typeof " + g + "===\"" + e + "\"", "invalid type, expected " + e);
						}
						function i(t, r) {
							Array.isArray(g) ? K(g.length === t, "must have length " + t) : n(s.isArrayLike + "(" + g + ")&&" + g + ".length===" + t, "invalid vector, should have length " + t, e.commandStr);
						}
						function a(t) {
							K(!Array.isArray(g), "must not specify a value type"), n("typeof " + g + "===\"function\"&&" + g + "._reglType===\"texture" + (t === go ? "2d" : "Cube") + "\"", "invalid texture type", e.commandStr);
						}
						switch (p) {
							case jo:
								r("number");
								break;
							case Mo:
								i(2, "number");
								break;
							case No:
								i(3, "number");
								break;
							case Po:
								i(4, "number");
								break;
							case Do:
								r("number");
								break;
							case Oo:
								i(2, "number");
								break;
							case ko:
								i(3, "number");
								break;
							case Ao:
								i(4, "number");
								break;
							case Fo:
								r("boolean");
								break;
							case Io:
								i(2, "boolean");
								break;
							case Lo:
								i(3, "boolean");
								break;
							case Ro:
								i(4, "boolean");
								break;
							case zo:
								i(4, "number");
								break;
							case Bo:
								i(9, "number");
								break;
							case Vo:
								i(16, "number");
								break;
							case Ho:
								a(go);
								break;
							case Uo: a(_o);
						}
					});
					var x = 1;
					switch (p) {
						case Ho:
						case Uo:
							var S = t.def(g, "._texture");
							t(c, ".uniform1i(", h, ",", S, ".bind());"), t.exit(S, ".unbind();");
							continue;
						case jo:
						case Fo:
							l = "1i";
							break;
						case Mo:
						case Io:
							l = "2i", x = 2;
							break;
						case No:
						case Lo:
							l = "3i", x = 3;
							break;
						case Po:
						case Ro:
							l = "4i", x = 4;
							break;
						case Do:
							l = "1f";
							break;
						case Oo:
							l = "2f", x = 2;
							break;
						case ko:
							l = "3f", x = 3;
							break;
						case Ao:
							l = "4f", x = 4;
							break;
						case zo:
							l = "Matrix2fv";
							break;
						case Bo:
							l = "Matrix3fv";
							break;
						case Vo: l = "Matrix4fv";
					}
					if (l.charAt(0) === "M") {
						t(c, ".uniform", l, "(", h, ",");
						var C = (p - zo + 2) ** 2, w = e.global.def("new Float32Array(", C, ")");
						Array.isArray(g) ? t("false,(", je(C, function(e) {
							return w + "[" + e + "]=" + g[e];
						}), ",", w, ")") : t("false,(Array.isArray(", g, ")||", g, " instanceof Float32Array)?", g, ":(", je(C, function(e) {
							return w + "[" + e + "]=" + g + "[" + e + "]";
						}), ",", w, ")"), t(");");
					} else if (x > 1) {
						for (var T = [], E = [], D = 0; D < x; ++D) Array.isArray(g) ? E.push(g[D]) : E.push(t.def(g + "[" + D + "]")), o && T.push(t.def());
						o && t("if(!", e.batchId, "||", T.map(function(e, t) {
							return e + "!==" + E[t];
						}).join("||"), "){", T.map(function(e, t) {
							return e + "=" + E[t] + ";";
						}).join("")), t(c, ".uniform", l, "(", h, ",", E.join(","), ");"), o && t("}");
					} else {
						if (K(!Array.isArray(g), "uniform value must not be an array"), o) {
							var O = t.def();
							t("if(!", e.batchId, "||", O, "!==", g, "){", O, "=", g, ";");
						}
						t(c, ".uniform", l, "(", h, ",", g, ");"), o && t("}");
					}
				}
			}
			function G(e, t, n, r) {
				var i = e.shared, a = i.gl, o = i.draw, s = r.draw;
				function c() {
					var c = s.elements, l, u = t;
					return c ? ((c.contextDep && r.contextDynamic || c.propDep) && (u = n), l = c.append(e, u), s.elementsActive && u("if(" + l + ")" + a + ".bindBuffer(" + po + "," + l + ".buffer.buffer);")) : (l = u.def(), u(l, "=", o, ".", Xa, ";", "if(", l, "){", a, ".bindBuffer(", po, ",", l, ".buffer.buffer);}", "else if(", i.vao, ".currentVAO){", l, "=", e.shared.elements + ".getElements(" + i.vao, ".currentVAO.elements);", b ? "" : "if(" + l + ")" + a + ".bindBuffer(" + po + "," + l + ".buffer.buffer);", "}")), l;
				}
				function l() {
					var i = s.count, a, c = t;
					return i ? ((i.contextDep && r.contextDynamic || i.propDep) && (c = n), a = i.append(e, c), K.optional(function() {
						i.MISSING && e.assert(t, "false", "missing vertex count"), i.DYNAMIC && e.assert(c, a + ">=0", "missing vertex count");
					})) : (a = c.def(o, ".", $), K.optional(function() {
						e.assert(c, a + ">=0", "missing vertex count");
					})), a;
				}
				var u = c();
				function d(i) {
					var a = s[i];
					return a ? a.contextDep && r.contextDynamic || a.propDep ? a.append(e, n) : a.append(e, t) : t.def(o, ".", i);
				}
				var f = d(Za), p = d(Qa), m = l();
				if (typeof m == "number") {
					if (m === 0) return;
				} else n("if(", m, "){"), n.exit("}");
				var h, g;
				v && (h = d($a), g = e.instancing);
				var _ = u + ".type", y = s.elements && ms(s.elements) && !s.vaoActive;
				function x() {
					function e() {
						n(g, ".drawElementsInstancedANGLE(", [
							f,
							m,
							_,
							p + "<<((" + _ + "-" + la + ")>>1)",
							h
						], ");");
					}
					function t() {
						n(g, ".drawArraysInstancedANGLE(", [
							f,
							p,
							m,
							h
						], ");");
					}
					u && u !== "null" ? y ? e() : (n("if(", u, "){"), e(), n("}else{"), t(), n("}")) : t();
				}
				function S() {
					function e() {
						n(a + ".drawElements(" + [
							f,
							m,
							_,
							p + "<<((" + _ + "-" + la + ")>>1)"
						] + ");");
					}
					function t() {
						n(a + ".drawArrays(" + [
							f,
							p,
							m
						] + ");");
					}
					u && u !== "null" ? y ? e() : (n("if(", u, "){"), e(), n("}else{"), t(), n("}")) : t();
				}
				v && (typeof h != "number" || h >= 0) ? typeof h == "string" ? (n("if(", h, ">0){"), x(), n("}else if(", h, "<0){"), S(), n("}")) : x() : S();
			}
			function se(e, t, n, r, i) {
				var a = M(), o = a.proc("body", i);
				return K.optional(function() {
					a.commandStr = t.commandStr, a.command = a.link(t.commandStr);
				}), v && (a.instancing = o.def(a.shared.extensions, ".angle_instanced_arrays")), e(a, o, n, r), a.compile().body;
			}
			function ce(e, t, n, r) {
				ae(e, t), n.useVAO ? n.drawVAO ? t(e.shared.vao, ".setVAO(", n.drawVAO.append(e, t), ");") : t(e.shared.vao, ".setVAO(", e.shared.vao, ".targetVAO);") : (t(e.shared.vao, ".setVAO(null);"), U(e, t, n, r.attributes, function() {
					return !0;
				})), W(e, t, n, r.uniforms, function() {
					return !0;
				}, !1), G(e, t, t, n);
			}
			function le(e, t) {
				var n = e.proc("draw", 1);
				ae(e, n), re(e, n, t.context), V(e, n, t.framebuffer), H(e, n, t), ie(e, n, t.state), oe(e, n, t, !1, !0);
				var r = t.shader.progVar.append(e, n);
				if (n(e.shared.gl, ".useProgram(", r, ".program);"), t.shader.program) ce(e, n, t, t.shader.program);
				else {
					n(e.shared.vao, ".setVAO(null);");
					var i = e.global.def("{}"), a = n.def(r, ".id"), o = n.def(i, "[", a, "]");
					n(e.cond(o).then(o, ".call(this,a0);").else(o, "=", i, "[", a, "]=", e.link(function(n) {
						return se(ce, e, t, n, 1);
					}), "(", r, ");", o, ".call(this,a0);"));
				}
				Object.keys(t.state).length > 0 && n(e.shared.current, ".dirty=true;"), e.shared.vao && n(e.shared.vao, ".setVAO(null);");
			}
			function ue(e, t, n, r) {
				e.batchId = "a1", ae(e, t);
				function i() {
					return !0;
				}
				U(e, t, n, r.attributes, i), W(e, t, n, r.uniforms, i, !1), G(e, t, t, n);
			}
			function de(e, t, n, r) {
				ae(e, t);
				var i = n.contextDep, a = t.def(), o = "a0", s = "a1", c = t.def();
				e.shared.props = c, e.batchId = a;
				var l = e.scope(), u = e.scope();
				t(l.entry, "for(", a, "=0;", a, "<", s, ";++", a, "){", c, "=", o, "[", a, "];", u, "}", l.exit);
				function d(e) {
					return e.contextDep && i || e.propDep;
				}
				function f(e) {
					return !d(e);
				}
				if (n.needsContext && re(e, u, n.context), n.needsFramebuffer && V(e, u, n.framebuffer), ie(e, u, n.state, d), n.profile && d(n.profile) && oe(e, u, n, !1, !0), r) n.useVAO ? n.drawVAO ? d(n.drawVAO) ? u(e.shared.vao, ".setVAO(", n.drawVAO.append(e, u), ");") : l(e.shared.vao, ".setVAO(", n.drawVAO.append(e, l), ");") : l(e.shared.vao, ".setVAO(", e.shared.vao, ".targetVAO);") : (l(e.shared.vao, ".setVAO(null);"), U(e, l, n, r.attributes, f), U(e, u, n, r.attributes, d)), W(e, l, n, r.uniforms, f, !1), W(e, u, n, r.uniforms, d, !0), G(e, l, u, n);
				else {
					var p = e.global.def("{}"), m = n.shader.progVar.append(e, u), h = u.def(m, ".id"), g = u.def(p, "[", h, "]");
					u(e.shared.gl, ".useProgram(", m, ".program);", "if(!", g, "){", g, "=", p, "[", h, "]=", e.link(function(t) {
						return se(ue, e, n, t, 2);
					}), "(", m, ");}", g, ".call(this,a0[", a, "],", a, ");");
				}
			}
			function fe(e, t) {
				var n = e.proc("batch", 2);
				e.batchId = "0", ae(e, n);
				var r = !1, i = !0;
				Object.keys(t.context).forEach(function(e) {
					r = r || t.context[e].propDep;
				}), r || (re(e, n, t.context), i = !1);
				var a = t.framebuffer, o = !1;
				a ? (a.propDep ? r = o = !0 : a.contextDep && r && (o = !0), o || V(e, n, a)) : V(e, n, null), t.state.viewport && t.state.viewport.propDep && (r = !0);
				function s(e) {
					return e.contextDep && r || e.propDep;
				}
				H(e, n, t), ie(e, n, t.state, function(e) {
					return !s(e);
				}), t.profile && s(t.profile) || oe(e, n, t, !1, "a1"), t.contextDep = r, t.needsContext = i, t.needsFramebuffer = o;
				var c = t.shader.progVar;
				if (c.contextDep && r || c.propDep) de(e, n, t, null);
				else {
					var l = c.append(e, n);
					if (n(e.shared.gl, ".useProgram(", l, ".program);"), t.shader.program) de(e, n, t, t.shader.program);
					else {
						n(e.shared.vao, ".setVAO(null);");
						var u = e.global.def("{}"), d = n.def(l, ".id"), f = n.def(u, "[", d, "]");
						n(e.cond(f).then(f, ".call(this,a0,a1);").else(f, "=", u, "[", d, "]=", e.link(function(n) {
							return se(de, e, t, n, 2);
						}), "(", l, ");", f, ".call(this,a0,a1);"));
					}
				}
				Object.keys(t.state).length > 0 && n(e.shared.current, ".dirty=true;"), e.shared.vao && n(e.shared.vao, ".setVAO(null);");
			}
			function pe(e, t) {
				var r = e.proc("scope", 3);
				e.batchId = "a2";
				var i = e.shared, a = i.current;
				re(e, r, t.context), t.framebuffer && t.framebuffer.append(e, r), fs(Object.keys(t.state)).forEach(function(n) {
					var a = t.state[n].append(e, r);
					mn(a) ? a.forEach(function(t, i) {
						r.set(e.next[n], "[" + i + "]", t);
					}) : r.set(i.next, "." + n, a);
				}), oe(e, r, t, !0, !0), [
					Xa,
					Qa,
					$,
					$a,
					Za
				].forEach(function(n) {
					var a = t.draw[n];
					a && r.set(i.draw, "." + n, "" + a.append(e, r));
				}), Object.keys(t.uniforms).forEach(function(a) {
					var o = t.uniforms[a].append(e, r);
					Array.isArray(o) && (o = "[" + o.join() + "]"), r.set(i.uniforms, "[" + n.id(a) + "]", o);
				}), Object.keys(t.attributes).forEach(function(n) {
					var i = t.attributes[n].append(e, r), a = e.scopeAttrib(n);
					Object.keys(new g()).forEach(function(e) {
						r.set(a, "." + e, i[e]);
					});
				}), t.scopeVAO && r.set(i.vao, ".targetVAO", t.scopeVAO.append(e, r));
				function o(n) {
					var a = t.shader[n];
					a && r.set(i.shader, "." + n, a.append(e, r));
				}
				o(Ja), o(Ya), Object.keys(t.state).length > 0 && (r(a, ".dirty=true;"), r.exit(a, ".dirty=true;")), r("a1(", e.shared.context, ",a0,", e.batchId, ");");
			}
			function q(e) {
				if (!(typeof e != "object" || mn(e))) {
					for (var t = Object.keys(e), n = 0; n < t.length; ++n) if (be.isDynamic(e[t[n]])) return !0;
					return !1;
				}
			}
			function me(e, t, n) {
				var r = t.static[n];
				if (!r || !q(r)) return;
				var i = e.global, a = Object.keys(r), o = !1, s = !1, c = !1, l = e.global.def("{}");
				a.forEach(function(t) {
					var n = r[t];
					if (be.isDynamic(n)) {
						typeof n == "function" && (n = r[t] = be.unbox(n));
						var a = gs(n, null);
						o = o || a.thisDep, c = c || a.propDep, s = s || a.contextDep;
					} else {
						switch (i(l, ".", t, "="), typeof n) {
							case "number":
								i(n);
								break;
							case "string":
								i("\"", n, "\"");
								break;
							case "object":
								Array.isArray(n) && i("[", n.join(), "]");
								break;
							default: i(e.link(n));
						}
						i(";");
					}
				});
				function u(e, t) {
					a.forEach(function(n) {
						var i = r[n];
						be.isDynamic(i) && t(l, ".", n, "=", e.invoke(t, i), ";");
					});
				}
				t.dynamic[n] = new be.DynamicVariable(ga, {
					thisDep: o,
					contextDep: s,
					propDep: c,
					ref: l,
					append: u
				}), delete t.static[n];
			}
			function he(e, n, r, i, a) {
				var o = M();
				o.stats = o.link(a), Object.keys(n.static).forEach(function(e) {
					me(o, n, e);
				}), uo.forEach(function(t) {
					me(o, e, t);
				});
				var s = B(e, n, r, i, o);
				return le(o, s), pe(o, s), fe(o, s), t(o.compile(), { destroy: function() {
					s.shader.program.destroy();
				} });
			}
			return {
				next: S,
				current: x,
				procs: (function() {
					var e = M(), t = e.proc("poll"), n = e.proc("refresh"), a = e.block();
					t(a), n(a);
					var o = e.shared, s = o.gl, c = o.next, l = o.current;
					a(l, ".dirty=false;"), V(e, t), V(e, n, null, !0);
					var u;
					v && (u = e.link(v)), r.oes_vertex_array_object && n(e.link(r.oes_vertex_array_object), ".bindVertexArrayOES(null);");
					for (var d = 0; d < i.maxAttributes; ++d) {
						var f = n.def(o.attributes, "[", d, "]"), p = e.cond(f, ".buffer");
						p.then(s, ".enableVertexAttribArray(", d, ");", s, ".bindBuffer(", fo, ",", f, ".buffer.buffer);", s, ".vertexAttribPointer(", d, ",", f, ".size,", f, ".type,", f, ".normalized,", f, ".stride,", f, ".offset);").else(s, ".disableVertexAttribArray(", d, ");", s, ".vertexAttrib4f(", d, ",", f, ".x,", f, ".y,", f, ".z,", f, ".w);", f, ".buffer=null;"), n(p), v && n(u, ".vertexAttribDivisorANGLE(", d, ",", f, ".divisor);");
					}
					return n(e.shared.vao, ".currentVAO=null;", e.shared.vao, ".setVAO(", e.shared.vao, ".targetVAO);"), Object.keys(w).forEach(function(r) {
						var i = w[r], o = a.def(c, ".", r), u = e.block();
						u("if(", o, "){", s, ".enable(", i, ")}else{", s, ".disable(", i, ")}", l, ".", r, "=", o, ";"), n(u), t("if(", o, "!==", l, ".", r, "){", u, "}");
					}), Object.keys(T).forEach(function(r) {
						var i = T[r], o = x[r], u, d, f = e.block();
						if (f(s, ".", i, "("), mn(o)) {
							var p = o.length;
							u = e.global.def(c, ".", r), d = e.global.def(l, ".", r), f(je(p, function(e) {
								return u + "[" + e + "]";
							}), ");", je(p, function(e) {
								return d + "[" + e + "]=" + u + "[" + e + "];";
							}).join("")), t("if(", je(p, function(e) {
								return u + "[" + e + "]!==" + d + "[" + e + "]";
							}).join("||"), "){", f, "}");
						} else u = a.def(c, ".", r), d = a.def(l, ".", r), f(u, ");", l, ".", r, "=", u, ";"), t("if(", u, "!==", d, "){", f, "}");
						n(f);
					}), e.compile();
				})(),
				compile: he
			};
		}
		function ys() {
			return {
				vaoCount: 0,
				bufferCount: 0,
				elementsCount: 0,
				framebufferCount: 0,
				shaderCount: 0,
				textureCount: 0,
				cubeCount: 0,
				renderbufferCount: 0,
				maxTextureUnits: 0
			};
		}
		var bs = 34918, xs = 34919, Ss = 35007, Cs = function(e, t) {
			if (!t.ext_disjoint_timer_query) return null;
			var n = [];
			function r() {
				return n.pop() || t.ext_disjoint_timer_query.createQueryEXT();
			}
			function i(e) {
				n.push(e);
			}
			var a = [];
			function o(e) {
				var n = r();
				t.ext_disjoint_timer_query.beginQueryEXT(Ss, n), a.push(n), p(a.length - 1, a.length, e);
			}
			function s() {
				t.ext_disjoint_timer_query.endQueryEXT(Ss);
			}
			function c() {
				this.startQueryIndex = -1, this.endQueryIndex = -1, this.sum = 0, this.stats = null;
			}
			var l = [];
			function u() {
				return l.pop() || new c();
			}
			function d(e) {
				l.push(e);
			}
			var f = [];
			function p(e, t, n) {
				var r = u();
				r.startQueryIndex = e, r.endQueryIndex = t, r.sum = 0, r.stats = n, f.push(r);
			}
			var m = [], h = [];
			function g() {
				var e, n, r = a.length;
				if (r !== 0) {
					h.length = Math.max(h.length, r + 1), m.length = Math.max(m.length, r + 1), m[0] = 0, h[0] = 0;
					var o = 0;
					for (e = 0, n = 0; n < a.length; ++n) {
						var s = a[n];
						t.ext_disjoint_timer_query.getQueryObjectEXT(s, xs) ? (o += t.ext_disjoint_timer_query.getQueryObjectEXT(s, bs), i(s)) : a[e++] = s, m[n + 1] = o, h[n + 1] = e;
					}
					for (a.length = e, e = 0, n = 0; n < f.length; ++n) {
						var c = f[n], l = c.startQueryIndex, u = c.endQueryIndex;
						c.sum += m[u] - m[l];
						var p = h[l], g = h[u];
						g === p ? (c.stats.gpuTime += c.sum / 1e6, d(c)) : (c.startQueryIndex = p, c.endQueryIndex = g, f[e++] = c);
					}
					f.length = e;
				}
			}
			return {
				beginQuery: o,
				endQuery: s,
				pushScopeStats: p,
				update: g,
				getNumPendingQueries: function() {
					return a.length;
				},
				clear: function() {
					n.push.apply(n, a);
					for (var e = 0; e < n.length; e++) t.ext_disjoint_timer_query.deleteQueryEXT(n[e]);
					a.length = 0, n.length = 0;
				},
				restore: function() {
					a.length = 0, n.length = 0;
				}
			};
		}, ws = 16384, Ts = 256, Es = 1024, Ds = 34962, Os = "webglcontextlost", ks = "webglcontextrestored", As = 1, js = 2, Ms = 3;
		function Ns(e, t) {
			for (var n = 0; n < e.length; ++n) if (e[n] === t) return n;
			return -1;
		}
		function Ps(e) {
			var n = ke(e);
			if (!n) return null;
			var r = n.gl, i = r.getContextAttributes(), a = r.isContextLost(), o = Ae(r, n);
			if (!o) return null;
			var s = Ce(), c = ys(), l = o.extensions, u = Cs(r, l), d = Se(), f = r.drawingBufferWidth, p = r.drawingBufferHeight, m = {
				tick: 0,
				time: 0,
				viewportWidth: f,
				viewportHeight: p,
				framebufferWidth: f,
				framebufferHeight: p,
				drawingBufferWidth: f,
				drawingBufferHeight: p,
				pixelRatio: n.pixelRatio
			}, h = {}, g = {
				elements: null,
				primitive: 4,
				count: -1,
				offset: 0,
				instances: -1
			}, _ = Tt(r, l), v = Jt(r, c, n, x), y = ln(r, l, v, c), b = Ji(r, l, _, c, v, y, g);
			function x(e) {
				return b.destroyBuffer(e);
			}
			var S = $i(r, s, c, n), C = Zr(r, l, _, function() {
				E.procs.poll();
			}, m, c, n), w = di(r, l, _, c, n), T = Hi(r, l, _, C, w, c), E = vs(r, s, l, _, v, y, C, T, h, b, S, g, m, u, n), D = ia(r, T, E.procs.poll, m, i, l, _), O = E.next, k = r.canvas, A = [], j = [], M = [], N = [n.onDestroy], P = null;
			function F() {
				if (A.length === 0) u && u.update(), P = null;
				else {
					P = xe.next(F), ie();
					for (var e = A.length - 1; e >= 0; --e) {
						var t = A[e];
						t && t(m, null, 0);
					}
					r.flush(), u && u.update();
				}
			}
			function ee() {
				!P && A.length > 0 && (P = xe.next(F));
			}
			function te() {
				P && (xe.cancel(F), P = null);
			}
			function I(e) {
				e.preventDefault(), a = !0, te(), j.forEach(function(e) {
					e();
				});
			}
			function L(e) {
				r.getError(), a = !1, o.restore(), S.restore(), v.restore(), C.restore(), w.restore(), T.restore(), b.restore(), u && u.restore(), E.procs.refresh(), ee(), M.forEach(function(e) {
					e();
				});
			}
			k && (k.addEventListener(Os, I, !1), k.addEventListener(ks, L, !1));
			function R() {
				A.length = 0, te(), k && (k.removeEventListener(Os, I), k.removeEventListener(ks, L)), S.clear(), T.clear(), w.clear(), b.clear(), C.clear(), y.clear(), v.clear(), u && u.clear(), N.forEach(function(e) {
					e();
				});
			}
			function z(e) {
				K(!!e, "invalid args to regl({...})"), K.type(e, "object", "invalid args to regl({...})");
				function n(e) {
					var n = t({}, e);
					delete n.uniforms, delete n.attributes, delete n.context, delete n.vao, "stencil" in n && n.stencil.op && (n.stencil.opBack = n.stencil.opFront = n.stencil.op, delete n.stencil.op);
					function r(e) {
						if (e in n) {
							var t = n[e];
							delete n[e], Object.keys(t).forEach(function(r) {
								n[e + "." + r] = t[r];
							});
						}
					}
					return r("blend"), r("depth"), r("cull"), r("stencil"), r("polygonOffset"), r("scissor"), r("sample"), "vao" in e && (n.vao = e.vao), n;
				}
				function r(e, t) {
					var n = {}, r = {};
					return Object.keys(e).forEach(function(i) {
						var a = e[i];
						if (be.isDynamic(a)) r[i] = be.unbox(a, i);
						else {
							if (t && Array.isArray(a)) {
								for (var o = 0; o < a.length; ++o) if (be.isDynamic(a[o])) {
									r[i] = be.unbox(a, i);
									return;
								}
							}
							n[i] = a;
						}
					}), {
						dynamic: r,
						static: n
					};
				}
				var i = r(e.context || {}, !0), o = r(e.uniforms || {}, !0), s = r(e.attributes || {}, !1), c = r(n(e), !1), l = {
					gpuTime: 0,
					cpuTime: 0,
					count: 0
				}, u = E.compile(c, s, o, i, l), d = u.draw, f = u.batch, p = u.scope, m = [];
				function h(e) {
					for (; m.length < e;) m.push(null);
					return m;
				}
				function g(e, t) {
					var n;
					if (a && K.raise("context lost"), typeof e == "function") return p.call(this, null, e, 0);
					if (typeof t == "function") {
						if (typeof e == "number") for (n = 0; n < e; ++n) p.call(this, null, t, n);
						else if (Array.isArray(e)) for (n = 0; n < e.length; ++n) p.call(this, e[n], t, n);
						else return p.call(this, e, t, 0);
					} else if (typeof e == "number") {
						if (e > 0) return f.call(this, h(e | 0), e | 0);
					} else if (Array.isArray(e)) {
						if (e.length) return f.call(this, e, e.length);
					} else return d.call(this, e);
				}
				return t(g, {
					stats: l,
					destroy: function() {
						u.destroy();
					}
				});
			}
			var ne = T.setFBO = z({ framebuffer: be.define.call(null, As, "framebuffer") });
			function B(e, t) {
				var n = 0;
				E.procs.poll();
				var i = t.color;
				i && (r.clearColor(+i[0] || 0, +i[1] || 0, +i[2] || 0, +i[3] || 0), n |= ws), "depth" in t && (r.clearDepth(+t.depth), n |= Ts), "stencil" in t && (r.clearStencil(t.stencil | 0), n |= Es), K(!!n, "called regl.clear with no buffer specified"), r.clear(n);
			}
			function re(e) {
				if (K(typeof e == "object" && e, "regl.clear() takes an object as input"), "framebuffer" in e) {
					if (e.framebuffer && e.framebuffer_reglType === "framebufferCube") for (var n = 0; n < 6; ++n) ne(t({ framebuffer: e.framebuffer.faces[n] }, e), B);
					else ne(e, B);
				} else B(null, e);
			}
			function V(e) {
				K.type(e, "function", "regl.frame() callback must be a function"), A.push(e);
				function t() {
					var t = Ns(A, e);
					K(t >= 0, "cannot cancel a frame twice");
					function n() {
						var e = Ns(A, n);
						A[e] = A[A.length - 1], --A.length, A.length <= 0 && te();
					}
					A[t] = n;
				}
				return ee(), { cancel: t };
			}
			function H() {
				var e = O.viewport, t = O.scissor_box;
				e[0] = e[1] = t[0] = t[1] = 0, m.viewportWidth = m.framebufferWidth = m.drawingBufferWidth = e[2] = t[2] = r.drawingBufferWidth, m.viewportHeight = m.framebufferHeight = m.drawingBufferHeight = e[3] = t[3] = r.drawingBufferHeight;
			}
			function ie() {
				m.tick += 1, m.time = oe(), H(), E.procs.poll();
			}
			function ae() {
				C.refresh(), H(), E.procs.refresh(), u && u.update();
			}
			function oe() {
				return (Se() - d) / 1e3;
			}
			ae();
			function U(e, t) {
				K.type(t, "function", "listener callback must be a function");
				var n;
				switch (e) {
					case "frame": return V(t);
					case "lost":
						n = j;
						break;
					case "restore":
						n = M;
						break;
					case "destroy":
						n = N;
						break;
					default: K.raise("invalid event, must be one of frame,lost,restore,destroy");
				}
				return n.push(t), { cancel: function() {
					for (var e = 0; e < n.length; ++e) if (n[e] === t) {
						n[e] = n[n.length - 1], n.pop();
						return;
					}
				} };
			}
			var W = t(z, {
				clear: re,
				prop: be.define.bind(null, As),
				context: be.define.bind(null, js),
				this: be.define.bind(null, Ms),
				draw: z({}),
				buffer: function(e) {
					return v.create(e, Ds, !1, !1);
				},
				elements: function(e) {
					return y.create(e, !1);
				},
				texture: C.create2D,
				cube: C.createCube,
				renderbuffer: w.create,
				framebuffer: T.create,
				framebufferCube: T.createCube,
				vao: b.createVAO,
				attributes: i,
				frame: V,
				on: U,
				limits: _,
				hasExtension: function(e) {
					return _.extensions.indexOf(e.toLowerCase()) >= 0;
				},
				read: D,
				destroy: R,
				_gl: r,
				_refresh: ae,
				poll: function() {
					ie(), u && u.update();
				},
				now: oe,
				stats: c
			});
			return n.onDone(null, W), W;
		}
		return Ps;
	}));
})))(), 1), w = (e) => e * e * e, T = (e) => e < .5 ? 4 * e * e * e : (e - 1) * (2 * e - 2) * (2 * e - 2) + 1, E = (e) => --e * e * e + 1, D = (e) => e, O = (e) => e * e, k = (e) => e < .5 ? 2 * e * e : -1 + (4 - 2 * e) * e, A = (e) => e * (2 - e), j = (e) => e, M = (e, t) => {
	if (e === t) return !0;
	if (e.length !== t.length) return !1;
	let n = new Set(e), r = new Set(t);
	return n.size === r.size && t.every((e) => n.has(e));
}, N = (e) => Math.sqrt(e.reduce((e, t) => e + t ** 2, 0)), P = (e) => e.reduce((e, t) => t > e ? t : e, -Infinity), F = (e, t = j) => {
	let n = [];
	for (let r = 0; r < e; r++) n.push(t(r, e));
	return n;
}, ee = (e, t) => {
	let n = [];
	return e.forEach((e) => {
		n[e] = !0;
	}), t.forEach((e) => {
		n[e] = !0;
	}), n.reduce((e, t, n) => (t && e.push(n), e), []);
}, te = (e, ...t) => (t.forEach((t) => {
	let n = Object.keys(t).reduce((e, n) => (e[n] = Object.getOwnPropertyDescriptor(t, n), e), {});
	Object.getOwnPropertySymbols(t).forEach((e) => {
		let r = Object.getOwnPropertyDescriptor(t, e);
		r?.enumerable && (n[e] = r);
	}), Object.defineProperties(e, n);
}), e);
function I(...e) {
	return (t) => e.reduce((e, t) => t(e), t);
}
var L = (e) => (t) => te({ __proto__: { constructor: e } }, t), R = (e, t) => (n) => te(n, { get [e]() {
	return t;
} }), z = (e, t, n, r) => Math.sqrt((e - n) ** 2 + (t - r) ** 2), ne = (e) => new Worker(window.URL.createObjectURL(new Blob([`(${e.toString()})()`], { type: "text/javascript" }))), B = (e = 1) => new Promise((t) => {
	let n = 0, r = () => requestAnimationFrame(() => {
		n++, n < e ? r() : t(void 0);
	});
	r();
}), re = (e, t, n) => {
	let r, i = 0;
	n = n === null ? t : n;
	let a = (...t) => {
		clearTimeout(r), r = setTimeout(() => {
			i > 0 && (e(...t), i = 0);
		}, n);
	}, o = !1, s = (...n) => {
		o ? (i++, a(...n)) : (e(...n), a(...n), o = !0, i = 0, setTimeout(() => {
			o = !1;
		}, t));
	};
	return s.reset = () => {
		o = !1;
	}, s.cancel = () => {
		clearTimeout(r);
	}, s.now = (...t) => e(...t), s;
}, V = 1e-6, H = typeof Float32Array < "u" ? Float32Array : Array;
function ie() {
	var e = new H(16);
	return H != Float32Array && (e[1] = 0, e[2] = 0, e[3] = 0, e[4] = 0, e[6] = 0, e[7] = 0, e[8] = 0, e[9] = 0, e[11] = 0, e[12] = 0, e[13] = 0, e[14] = 0), e[0] = 1, e[5] = 1, e[10] = 1, e[15] = 1, e;
}
function ae(e) {
	var t = new H(16);
	return t[0] = e[0], t[1] = e[1], t[2] = e[2], t[3] = e[3], t[4] = e[4], t[5] = e[5], t[6] = e[6], t[7] = e[7], t[8] = e[8], t[9] = e[9], t[10] = e[10], t[11] = e[11], t[12] = e[12], t[13] = e[13], t[14] = e[14], t[15] = e[15], t;
}
function oe(e, t) {
	var n = t[0], r = t[1], i = t[2], a = t[3], o = t[4], s = t[5], c = t[6], l = t[7], u = t[8], d = t[9], f = t[10], p = t[11], m = t[12], h = t[13], g = t[14], _ = t[15], v = n * s - r * o, y = n * c - i * o, b = n * l - a * o, x = r * c - i * s, S = r * l - a * s, C = i * l - a * c, w = u * h - d * m, T = u * g - f * m, E = u * _ - p * m, D = d * g - f * h, O = d * _ - p * h, k = f * _ - p * g, A = v * k - y * O + b * D + x * E - S * T + C * w;
	return A ? (A = 1 / A, e[0] = (s * k - c * O + l * D) * A, e[1] = (i * O - r * k - a * D) * A, e[2] = (h * C - g * S + _ * x) * A, e[3] = (f * S - d * C - p * x) * A, e[4] = (c * E - o * k - l * T) * A, e[5] = (n * k - i * E + a * T) * A, e[6] = (g * b - m * C - _ * y) * A, e[7] = (u * C - f * b + p * y) * A, e[8] = (o * O - s * E + l * w) * A, e[9] = (r * E - n * O - a * w) * A, e[10] = (m * S - h * b + _ * v) * A, e[11] = (d * b - u * S - p * v) * A, e[12] = (s * T - o * D - c * w) * A, e[13] = (n * D - r * T + i * w) * A, e[14] = (h * y - m * x - g * v) * A, e[15] = (u * x - d * y + f * v) * A, e) : null;
}
function U(e, t, n) {
	var r = t[0], i = t[1], a = t[2], o = t[3], s = t[4], c = t[5], l = t[6], u = t[7], d = t[8], f = t[9], p = t[10], m = t[11], h = t[12], g = t[13], _ = t[14], v = t[15], y = n[0], b = n[1], x = n[2], S = n[3];
	return e[0] = y * r + b * s + x * d + S * h, e[1] = y * i + b * c + x * f + S * g, e[2] = y * a + b * l + x * p + S * _, e[3] = y * o + b * u + x * m + S * v, y = n[4], b = n[5], x = n[6], S = n[7], e[4] = y * r + b * s + x * d + S * h, e[5] = y * i + b * c + x * f + S * g, e[6] = y * a + b * l + x * p + S * _, e[7] = y * o + b * u + x * m + S * v, y = n[8], b = n[9], x = n[10], S = n[11], e[8] = y * r + b * s + x * d + S * h, e[9] = y * i + b * c + x * f + S * g, e[10] = y * a + b * l + x * p + S * _, e[11] = y * o + b * u + x * m + S * v, y = n[12], b = n[13], x = n[14], S = n[15], e[12] = y * r + b * s + x * d + S * h, e[13] = y * i + b * c + x * f + S * g, e[14] = y * a + b * l + x * p + S * _, e[15] = y * o + b * u + x * m + S * v, e;
}
function W(e, t) {
	return e[0] = 1, e[1] = 0, e[2] = 0, e[3] = 0, e[4] = 0, e[5] = 1, e[6] = 0, e[7] = 0, e[8] = 0, e[9] = 0, e[10] = 1, e[11] = 0, e[12] = t[0], e[13] = t[1], e[14] = t[2], e[15] = 1, e;
}
function G(e, t) {
	return e[0] = t[0], e[1] = 0, e[2] = 0, e[3] = 0, e[4] = 0, e[5] = t[1], e[6] = 0, e[7] = 0, e[8] = 0, e[9] = 0, e[10] = t[2], e[11] = 0, e[12] = 0, e[13] = 0, e[14] = 0, e[15] = 1, e;
}
function se(e, t, n) {
	var r = n[0], i = n[1], a = n[2], o = Math.sqrt(r * r + i * i + a * a), s, c, l;
	return o < V ? null : (o = 1 / o, r *= o, i *= o, a *= o, s = Math.sin(t), c = Math.cos(t), l = 1 - c, e[0] = r * r * l + c, e[1] = i * r * l + a * s, e[2] = a * r * l - i * s, e[3] = 0, e[4] = r * i * l - a * s, e[5] = i * i * l + c, e[6] = a * i * l + r * s, e[7] = 0, e[8] = r * a * l + i * s, e[9] = i * a * l - r * s, e[10] = a * a * l + c, e[11] = 0, e[12] = 0, e[13] = 0, e[14] = 0, e[15] = 1, e);
}
function ce(e, t) {
	return e[0] = t[12], e[1] = t[13], e[2] = t[14], e;
}
function le(e, t) {
	var n = t[0], r = t[1], i = t[2], a = t[4], o = t[5], s = t[6], c = t[8], l = t[9], u = t[10];
	return e[0] = Math.sqrt(n * n + r * r + i * i), e[1] = Math.sqrt(a * a + o * o + s * s), e[2] = Math.sqrt(c * c + l * l + u * u), e;
}
function ue() {
	var e = new H(4);
	return H != Float32Array && (e[0] = 0, e[1] = 0, e[2] = 0, e[3] = 0), e;
}
function K(e, t, n) {
	var r = t[0], i = t[1], a = t[2], o = t[3];
	return e[0] = n[0] * r + n[4] * i + n[8] * a + n[12] * o, e[1] = n[1] * r + n[5] * i + n[9] * a + n[13] * o, e[2] = n[2] * r + n[6] * i + n[10] * a + n[14] * o, e[3] = n[3] * r + n[7] * i + n[11] * a + n[15] * o, e;
}
(function() {
	var e = ue();
	return function(t, n, r, i, a, o) {
		var s, c;
		for (n || (n = 4), r || (r = 0), c = i ? Math.min(i * n + r, t.length) : t.length, s = r; s < c; s += n) e[0] = t[s], e[1] = t[s + 1], e[2] = t[s + 2], e[3] = t[s + 3], a(e, e, o), t[s] = e[0], t[s + 1] = e[1], t[s + 2] = e[2], t[s + 3] = e[3];
		return t;
	};
})();
function de() {
	var e = new H(2);
	return H != Float32Array && (e[0] = 0, e[1] = 0), e;
}
function fe(e, t) {
	var n = e[0], r = e[1], i = t[0], a = t[1];
	return Math.abs(Math.atan2(r * i - n * a, n * i + r * a));
}
(function() {
	var e = de();
	return function(t, n, r, i, a, o) {
		var s, c;
		for (n || (n = 2), r || (r = 0), c = i ? Math.min(i * n + r, t.length) : t.length, s = r; s < c; s += n) e[0] = t[s], e[1] = t[s + 1], a(e, e, o), t[s] = e[0], t[s + 1] = e[1];
		return t;
	};
})();
var pe = (e = [0, 0], t = 1, n = 0, r = [0, 0], i = [[0, Infinity], [0, Infinity]], a = [[-Infinity, Infinity], [-Infinity, Infinity]]) => {
	let o = /* @__PURE__ */ new Float32Array(16), s = /* @__PURE__ */ new Float32Array(16), c = /* @__PURE__ */ new Float32Array(16), l = ie(), u = [
		...r.slice(0, 2),
		0,
		1
	], d = Array.isArray(i[0]) ? [...i[0]] : [...i], f = Array.isArray(i[0]) ? [...i[1]] : [...i], p = Array.isArray(a[0]) ? [...a[0]] : [...a], m = Array.isArray(a[0]) ? [...a[1]] : [...a], h = () => le(o, l).slice(0, 2), g = () => {
		let e = h();
		return Math.min(e[0], e[1]);
	}, _ = () => {
		let e = h();
		return Math.max(e[0], e[1]);
	}, v = () => Math.acos(l[0] / _()), y = () => [[...d], [...f]], b = () => [[...p], [...m]], x = () => {
		let e = h();
		return [1 / e[0], 1 / e[1]];
	}, S = () => 1 / g(), C = () => 1 / _(), w = () => ce(o, l).slice(0, 2), T = () => K(o, u, oe(c, l)).slice(0, 2), E = () => l, D = () => u.slice(0, 2), O = ([e = 0, t = 0] = [], n = 1, r = 0) => {
		l = ie(), k([-e, -t]), j(r), A(1 / n);
	}, k = ([e = 0, t = 0] = []) => {
		o[0] = e, o[1] = t, o[2] = 0;
		let n = W(s, o);
		U(l, n, l);
	}, A = (e, t) => {
		let n = Array.isArray(e), r = n ? e[0] : e, i = n ? e[1] : e;
		if (r <= 0 || i <= 0 || r === 1 && i === 1) return;
		let a = h(), p = a[0] * r, m = a[1] * i;
		if (r = Math.max(d[0], Math.min(p, d[1])) / a[0], i = Math.max(f[0], Math.min(m, f[1])) / a[1], r === 1 && i === 1) return;
		o[0] = r, o[1] = i, o[2] = 1;
		let g = G(s, o), _ = t ? [...t, 0] : u, v = W(o, _);
		U(l, v, U(l, g, U(l, oe(c, v), l)));
	}, j = (e) => {
		let t = ie();
		se(t, e, [
			0,
			0,
			1
		]), U(l, t, l);
	}, M = (e) => {
		let t = Array.isArray(e[0]);
		d[0] = t ? e[0][0] : e[0], d[1] = t ? e[0][1] : e[1], f[0] = t ? e[1][0] : e[0], f[1] = t ? e[1][1] : e[1];
	}, N = (e) => {
		let t = Array.isArray(e[0]);
		p[0] = t ? e[0][0] : e[0], p[1] = t ? e[0][1] : e[1], m[0] = t ? e[1][0] : e[0], m[1] = t ? e[1][1] : e[1];
	}, P = (e) => {
		!e || e.length < 16 || (l = e);
	};
	return O(e, t, n), {
		get translation() {
			return w();
		},
		get target() {
			return T();
		},
		get scaling() {
			return h();
		},
		get minScaling() {
			return g();
		},
		get maxScaling() {
			return _();
		},
		get scaleBounds() {
			return y();
		},
		get translationBounds() {
			return b();
		},
		get distance() {
			return x();
		},
		get minDistance() {
			return S();
		},
		get maxDistance() {
			return C();
		},
		get rotation() {
			return v();
		},
		get view() {
			return E();
		},
		get viewCenter() {
			return D();
		},
		lookAt: O,
		translate: k,
		pan: k,
		rotate: j,
		scale: A,
		zoom: A,
		reset: () => {
			O(e, t, n);
		},
		set: (...e) => (console.warn("`set()` is deprecated. Please use `setView()` instead."), P(...e)),
		setScaleBounds: M,
		setTranslationBounds: N,
		setView: P,
		setViewCenter: (e) => {
			u = [
				...e.slice(0, 2),
				0,
				1
			];
		}
	};
}, q = ["pan", "rotate"], me = {
	alt: "altKey",
	cmd: "metaKey",
	ctrl: "ctrlKey",
	meta: "metaKey",
	shift: "shiftKey"
}, he = (e, { distance: t = 1, target: n = [0, 0], rotation: r = 0, isNdc: i = !0, isFixed: a = !1, isPan: o = !0, isPanInverted: s = [!1, !0], panSpeed: c = 1, isRotate: l = !0, rotateSpeed: u = 1, defaultMouseDownMoveAction: d = "pan", mouseDownMoveModKey: f = "alt", isZoom: p = !0, zoomSpeed: m = 1, viewCenter: h, scaleBounds: g, translationBounds: _, onKeyDown: v = () => {}, onKeyUp: y = () => {}, onMouseDown: b = () => {}, onMouseUp: x = () => {}, onMouseMove: S = () => {}, onWheel: C = () => {} } = {}) => {
	let w = pe(n, t, r, h, g, _), T = 0, E = 0, D = 0, O = 0, k = 0, A = 0, j = !1, M = 0, N = 1, P = 1, F = 1, ee = !1, te = !1, I = !1, L = d === "pan", R = o, z = o, ne = s, B = s, re = p, V = p, H = () => {
		R = Array.isArray(o) ? !!o[0] : o, z = Array.isArray(o) ? !!o[1] : o, ne = Array.isArray(s) ? !!s[0] : s, B = Array.isArray(s) ? !!s[1] : s, re = Array.isArray(p) ? !!p[0] : p, V = Array.isArray(p) ? !!p[1] : p;
	};
	H();
	let ie = i ? (e) => e / N * 2 * F : (e) => e, ae = i ? (e) => e / P * 2 : (e) => -e, oe = i ? (e) => (-1 + e / N * 2) * F : (e) => e, U = i ? (e) => 1 - e / P * 2 : (e) => e, W = () => {
		if (a) {
			let e = te;
			return te = !1, e;
		}
		ee = !1;
		let e = T, t = E;
		if ((R || z) && j && (L && !I || !L && I)) {
			let n = ne ? k - e : e - k, r = R ? ie(c * n) : 0, i = B ? A - t : t - A, a = z ? ae(c * i) : 0;
			(r !== 0 || a !== 0) && (w.pan([r, a]), ee = !0);
		}
		if ((re || V) && M) {
			let e = m * Math.exp(M / P), t = oe(D), n = U(O);
			w.scale([re ? 1 / e : 1, V ? 1 / e : 1], [t, n]), ee = !0;
		}
		if (l && j && (L && I || !L && !I) && Math.abs(k - e) + Math.abs(A - t) > 0) {
			let n = N / 2, r = P / 2, i = k - n, a = r - A, o = e - n, s = r - t, c = fe([i, a], [o, s]), l = i * s - o * a;
			w.rotate(u * c * Math.sign(l)), ee = !0;
		}
		M = 0, k = e, A = t;
		let n = ee || te;
		return te = !1, n;
	}, G = ({ defaultMouseDownMoveAction: e = null, isFixed: t = null, isPan: n = null, isPanInverted: r = null, isRotate: i = null, isZoom: h = null, panSpeed: g = null, rotateSpeed: _ = null, zoomSpeed: v = null, mouseDownMoveModKey: y = null } = {}) => {
		d = e !== null && q.includes(e) ? e : d, L = d === "pan", a = t === null ? a : t, o = n === null ? o : n, s = r === null ? s : r, l = i === null ? l : i, p = h === null ? p : h, c = +g > 0 ? g : c, u = +_ > 0 ? _ : u, m = +v > 0 ? v : m, H(), f = y !== null && Object.keys(me).includes(y) ? y : f;
	}, se = () => {
		let t = e.getBoundingClientRect();
		N = t.width, P = t.height, F = N / P;
	}, ce = (e) => {
		I = !1, y(e);
	}, le = (e) => {
		I = e[me[f]], v(e);
	}, ue = (e) => {
		j = !1, x(e);
	}, K = (e) => {
		j = e.buttons === 1, b(e);
	}, de = document.createEvent("MouseEvent").offsetX === void 0 ? (t) => {
		let n = e.getBoundingClientRect();
		D = t.clientX - n.left, O = t.clientY - n.top;
	} : (e) => {
		D = e.offsetX, O = e.offsetY;
	}, he = (e) => {
		T = e.clientX, E = e.clientY;
	}, ge = (e) => {
		he(e), S(e);
	}, _e = (e) => {
		if ((re || V) && !a) {
			e.preventDefault(), he(e), de(e);
			let t = e.deltaMode === 1 ? 12 : 1;
			M += t * (e.deltaY || e.deltaX || 0);
		}
		C(e);
	};
	window.addEventListener("keydown", le, { passive: !0 }), window.addEventListener("keyup", ce, { passive: !0 }), e.addEventListener("mousedown", K, { passive: !0 }), window.addEventListener("mouseup", ue, { passive: !0 }), window.addEventListener("mousemove", ge, { passive: !0 }), e.addEventListener("wheel", _e, { passive: !1 }), w.config = G, w.dispose = () => {
		w = void 0, window.removeEventListener("keydown", le), window.removeEventListener("keyup", ce), e.removeEventListener("mousedown", K), window.removeEventListener("mouseup", ue), window.removeEventListener("mousemove", ge), e.removeEventListener("wheel", _e);
	}, w.refresh = se, w.tick = W;
	let ve = (e) => function() {
		e.apply(null, arguments), te = !0;
	};
	return w.lookAt = ve(w.lookAt), w.translate = ve(w.translate), w.pan = ve(w.pan), w.rotate = ve(w.rotate), w.scale = ve(w.scale), w.zoom = ve(w.zoom), w.reset = ve(w.reset), w.set = ve(w.set), w.setScaleBounds = ve(w.setScaleBounds), w.setTranslationBounds = ve(w.setTranslationBounds), w.setView = ve(w.setView), w.setViewCenter = ve(w.setViewCenter), se(), w;
};
function ge(e, t, n = 2) {
	let r = e.length, i = _e(e, 0, r, n, !0), a = [];
	if (!i || i.next === i.prev) return a;
	let o, s, c;
	if (e.length > 80 * n) {
		o = e[0], s = e[1];
		let t = o, i = s;
		for (let a = n; a < r; a += n) {
			let n = e[a], r = e[a + 1];
			n < o && (o = n), r < s && (s = r), n > t && (t = n), r > i && (i = r);
		}
		c = Math.max(t - o, i - s), c = c === 0 ? 0 : 32767 / c;
	}
	return J(i, a, n, o, s, c, 0), a;
}
function _e(e, t, n, r, i) {
	let a;
	if (i === Be(e, t, n, r) > 0) for (let i = t; i < n; i += r) a = Le(i / r | 0, e[i], e[i + 1], a);
	else for (let i = n - r; i >= t; i -= r) a = Le(i / r | 0, e[i], e[i + 1], a);
	return a && ke(a, a.next) && (Re(a), a = a.next), a;
}
function ve(e, t) {
	if (!e) return e;
	t || (t = e);
	let n = e, r;
	do
		if (r = !1, !n.steiner && (ke(n, n.next) || Y(n.prev, n, n.next) === 0)) {
			if (Re(n), n = t = n.prev, n === n.next) break;
			r = !0;
		} else n = n.next;
	while (r || n !== t);
	return t;
}
function J(e, t, n, r, i, a, o) {
	if (!e) return;
	!o && a && Ce(e, r, i, a);
	let s = e;
	for (; e.prev !== e.next;) {
		let c = e.prev, l = e.next;
		if (a ? be(e, r, i, a) : ye(e)) t.push(c.i, e.i, l.i), Re(e), e = l.next, s = l.next;
		else if (e = l, e === s) {
			o ? o === 1 ? (e = xe(ve(e), t), J(e, t, n, r, i, a, 2)) : o === 2 && Se(e, t, n, r, i, a) : J(ve(e), t, n, r, i, a, 1);
			break;
		}
	}
}
function ye(e) {
	let t = e.prev, n = e, r = e.next;
	if (Y(t, n, r) >= 0) return !1;
	let i = t.x, a = n.x, o = r.x, s = t.y, c = n.y, l = r.y, u = Math.min(i, a, o), d = Math.min(s, c, l), f = Math.max(i, a, o), p = Math.max(s, c, l), m = r.next;
	for (; m !== t;) {
		if (m.x >= u && m.x <= f && m.y >= d && m.y <= p && De(i, s, a, c, o, l, m.x, m.y) && Y(m.prev, m, m.next) >= 0) return !1;
		m = m.next;
	}
	return !0;
}
function be(e, t, n, r) {
	let i = e.prev, a = e, o = e.next;
	if (Y(i, a, o) >= 0) return !1;
	let s = i.x, c = a.x, l = o.x, u = i.y, d = a.y, f = o.y, p = Math.min(s, c, l), m = Math.min(u, d, f), h = Math.max(s, c, l), g = Math.max(u, d, f), _ = Te(p, m, t, n, r), v = Te(h, g, t, n, r), y = e.prevZ, b = e.nextZ;
	for (; y && y.z >= _ && b && b.z <= v;) {
		if (y.x >= p && y.x <= h && y.y >= m && y.y <= g && y !== i && y !== o && De(s, u, c, d, l, f, y.x, y.y) && Y(y.prev, y, y.next) >= 0 || (y = y.prevZ, b.x >= p && b.x <= h && b.y >= m && b.y <= g && b !== i && b !== o && De(s, u, c, d, l, f, b.x, b.y) && Y(b.prev, b, b.next) >= 0)) return !1;
		b = b.nextZ;
	}
	for (; y && y.z >= _;) {
		if (y.x >= p && y.x <= h && y.y >= m && y.y <= g && y !== i && y !== o && De(s, u, c, d, l, f, y.x, y.y) && Y(y.prev, y, y.next) >= 0) return !1;
		y = y.prevZ;
	}
	for (; b && b.z <= v;) {
		if (b.x >= p && b.x <= h && b.y >= m && b.y <= g && b !== i && b !== o && De(s, u, c, d, l, f, b.x, b.y) && Y(b.prev, b, b.next) >= 0) return !1;
		b = b.nextZ;
	}
	return !0;
}
function xe(e, t) {
	let n = e;
	do {
		let r = n.prev, i = n.next.next;
		!ke(r, i) && Ae(r, n, n.next, i) && Pe(r, i) && Pe(i, r) && (t.push(r.i, n.i, i.i), Re(n), Re(n.next), n = e = i), n = n.next;
	} while (n !== e);
	return ve(n);
}
function Se(e, t, n, r, i, a) {
	let o = e;
	do {
		let e = o.next.next;
		for (; e !== o.prev;) {
			if (o.i !== e.i && Oe(o, e)) {
				let s = Ie(o, e);
				o = ve(o, o.next), s = ve(s, s.next), J(o, t, n, r, i, a, 0), J(s, t, n, r, i, a, 0);
				return;
			}
			e = e.next;
		}
		o = o.next;
	} while (o !== e);
}
function Ce(e, t, n, r) {
	let i = e;
	do
		i.z === 0 && (i.z = Te(i.x, i.y, t, n, r)), i.prevZ = i.prev, i.nextZ = i.next, i = i.next;
	while (i !== e);
	i.prevZ.nextZ = null, i.prevZ = null, we(i);
}
function we(e) {
	let t, n = 1;
	do {
		let r = e, i;
		e = null;
		let a = null;
		for (t = 0; r;) {
			t++;
			let o = r, s = 0;
			for (let e = 0; e < n && (s++, o = o.nextZ, o); e++);
			let c = n;
			for (; s > 0 || c > 0 && o;) s !== 0 && (c === 0 || !o || r.z <= o.z) ? (i = r, r = r.nextZ, s--) : (i = o, o = o.nextZ, c--), a ? a.nextZ = i : e = i, i.prevZ = a, a = i;
			r = o;
		}
		a.nextZ = null, n *= 2;
	} while (t > 1);
	return e;
}
function Te(e, t, n, r, i) {
	return e = (e - n) * i | 0, t = (t - r) * i | 0, e = (e | e << 8) & 16711935, e = (e | e << 4) & 252645135, e = (e | e << 2) & 858993459, e = (e | e << 1) & 1431655765, t = (t | t << 8) & 16711935, t = (t | t << 4) & 252645135, t = (t | t << 2) & 858993459, t = (t | t << 1) & 1431655765, e | t << 1;
}
function Ee(e, t, n, r, i, a, o, s) {
	return (i - o) * (t - s) >= (e - o) * (a - s) && (e - o) * (r - s) >= (n - o) * (t - s) && (n - o) * (a - s) >= (i - o) * (r - s);
}
function De(e, t, n, r, i, a, o, s) {
	return (e !== o || t !== s) && Ee(e, t, n, r, i, a, o, s);
}
function Oe(e, t) {
	return e.next.i !== t.i && e.prev.i !== t.i && !Ne(e, t) && (Pe(e, t) && Pe(t, e) && Fe(e, t) && (Y(e.prev, e, t.prev) || Y(e, t.prev, t)) || ke(e, t) && Y(e.prev, e, e.next) > 0 && Y(t.prev, t, t.next) > 0);
}
function Y(e, t, n) {
	return (t.y - e.y) * (n.x - t.x) - (t.x - e.x) * (n.y - t.y);
}
function ke(e, t) {
	return e.x === t.x && e.y === t.y;
}
function Ae(e, t, n, r) {
	let i = Me(Y(e, t, n)), a = Me(Y(e, t, r)), o = Me(Y(n, r, e)), s = Me(Y(n, r, t));
	return !!(i !== a && o !== s || i === 0 && je(e, n, t) || a === 0 && je(e, r, t) || o === 0 && je(n, e, r) || s === 0 && je(n, t, r));
}
function je(e, t, n) {
	return t.x <= Math.max(e.x, n.x) && t.x >= Math.min(e.x, n.x) && t.y <= Math.max(e.y, n.y) && t.y >= Math.min(e.y, n.y);
}
function Me(e) {
	return e > 0 ? 1 : e < 0 ? -1 : 0;
}
function Ne(e, t) {
	let n = e;
	do {
		if (n.i !== e.i && n.next.i !== e.i && n.i !== t.i && n.next.i !== t.i && Ae(n, n.next, e, t)) return !0;
		n = n.next;
	} while (n !== e);
	return !1;
}
function Pe(e, t) {
	return Y(e.prev, e, e.next) < 0 ? Y(e, t, e.next) >= 0 && Y(e, e.prev, t) >= 0 : Y(e, t, e.prev) < 0 || Y(e, e.next, t) < 0;
}
function Fe(e, t) {
	let n = e, r = !1, i = (e.x + t.x) / 2, a = (e.y + t.y) / 2;
	do
		n.y > a != n.next.y > a && n.next.y !== n.y && i < (n.next.x - n.x) * (a - n.y) / (n.next.y - n.y) + n.x && (r = !r), n = n.next;
	while (n !== e);
	return r;
}
function Ie(e, t) {
	let n = ze(e.i, e.x, e.y), r = ze(t.i, t.x, t.y), i = e.next, a = t.prev;
	return e.next = t, t.prev = e, n.next = i, i.prev = n, r.next = n, n.prev = r, a.next = r, r.prev = a, r;
}
function Le(e, t, n, r) {
	let i = ze(e, t, n);
	return r ? (i.next = r.next, i.prev = r, r.next.prev = i, r.next = i) : (i.prev = i, i.next = i), i;
}
function Re(e) {
	e.next.prev = e.prev, e.prev.next = e.next, e.prevZ && (e.prevZ.nextZ = e.nextZ), e.nextZ && (e.nextZ.prevZ = e.prevZ);
}
function ze(e, t, n) {
	return {
		i: e,
		x: t,
		y: n,
		prev: null,
		next: null,
		z: 0,
		prevZ: null,
		nextZ: null,
		steiner: !1
	};
}
function Be(e, t, n, r) {
	let i = 0;
	for (let a = t, o = n - r; a < n; a += r) i += (e[o] - e[a]) * (e[a + 1] + e[o + 1]), o = a;
	return i;
}
var X = "\nprecision mediump float;\nvarying vec4 color;\nvoid main() {\n  gl_FragColor = color;\n}", Z = "\nuniform mat4 projectionViewModel;\nuniform float aspectRatio;\n\nuniform sampler2D colorTex;\nuniform float colorTexRes;\nuniform float colorTexEps;\nuniform float width;\nuniform float useOpacity;\nuniform float useColorOpacity;\nuniform int miter;\n\nattribute vec3 prevPosition;\nattribute vec3 currPosition;\nattribute vec3 nextPosition;\nattribute float opacity;\nattribute float offsetScale;\nattribute float colorIndex;\n\nvarying vec4 color;\n\nvoid main() {\n  vec2 aspectVec = vec2(aspectRatio, 1.0);\n  vec4 prevProjected = projectionViewModel * vec4(prevPosition, 1.0);\n  vec4 currProjected = projectionViewModel * vec4(currPosition, 1.0);\n  vec4 nextProjected = projectionViewModel * vec4(nextPosition, 1.0);\n\n  // get 2D screen space with W divide and aspect correction\n  vec2 prevScreen = prevProjected.xy / prevProjected.w * aspectVec;\n  vec2 currScreen = currProjected.xy / currProjected.w * aspectVec;\n  vec2 nextScreen = nextProjected.xy / nextProjected.w * aspectVec;\n\n  float len = width;\n\n  // starting point uses (next - current)\n  vec2 dir = vec2(0.0);\n  if (currScreen == prevScreen) {\n    dir = normalize(nextScreen - currScreen);\n  }\n  // ending point uses (current - previous)\n  else if (currScreen == nextScreen) {\n    dir = normalize(currScreen - prevScreen);\n  }\n  // somewhere in middle, needs a join\n  else {\n    // get directions from (C - B) and (B - A)\n    vec2 dirA = normalize((currScreen - prevScreen));\n    if (miter == 1) {\n      vec2 dirB = normalize((nextScreen - currScreen));\n      // now compute the miter join normal and length\n      vec2 tangent = normalize(dirA + dirB);\n      vec2 perp = vec2(-dirA.y, dirA.x);\n      vec2 miter = vec2(-tangent.y, tangent.x);\n      len = width / dot(miter, perp);\n      dir = tangent;\n    } else {\n      dir = dirA;\n    }\n  }\n\n  vec2 normal = vec2(-dir.y, dir.x) * len;\n  normal.x /= aspectRatio;\n  vec4 offset = vec4(normal * offsetScale, 0.0, 0.0);\n  gl_Position = currProjected + offset;\n\n  // Get color from texture\n  float colorRowIndex = floor((colorIndex + colorTexEps) / colorTexRes);\n  vec2 colorTexIndex = vec2(\n    (colorIndex / colorTexRes) - colorRowIndex + colorTexEps,\n    colorRowIndex / colorTexRes + colorTexEps\n  );\n\n  color = texture2D(colorTex, colorTexIndex);\n  color.a = useColorOpacity * color.a + useOpacity * opacity;\n}", Ve = new Float32Array([
	1,
	0,
	0,
	0,
	0,
	1,
	0,
	0,
	0,
	0,
	1,
	0,
	0,
	0,
	0,
	1
]), He = Float32Array.BYTES_PER_ELEMENT, Ue = (e) => e !== void 0 && Number.isFinite(e), We = (e) => e.length > 0 && Array.isArray(e[0]), { push: Ge, splice: Ke } = Array.prototype, qe = (e, t = []) => {
	let n = 0;
	for (let r of e) {
		for (let e = 0; e < r - 1; e++) {
			let r = n + e * 2, i = r + 1, a = r + 2, o = r + 3;
			t.push(r, i, a, a, i, o);
		}
		n += (r + 2) * 2;
	}
	return t;
};
function Je(e, t = 1, n = 1) {
	let r = [], i = Array(t * 2);
	for (let a = 0, o = e.length / t; a < o; a++) {
		let o = a * t;
		for (let r = 0; r < t; r++) {
			let a = e[o + r];
			i[r] = a, i[r + t] = a * n;
		}
		Ge.apply(r, i);
	}
	return r;
}
function Ye(e, t, n, r) {
	let i = Array(r), a = t * r;
	for (let t = 0; t < r; t++) i[t] = e[a + t];
	return Ke.call(e, n * r, 0, ...i), e;
}
function Xe(e, t, n, r = 0) {
	let i = [], a = Array(n).fill(r);
	for (let n = 0, r = e.length / t; n < r; n++) {
		let r = n * t;
		for (let n = 0; n < t; n++) a[n] = e[r + n];
		Ge.apply(i, a);
	}
	return i;
}
var Ze = (e, { projection: t = Ve, model: n = Ve, view: r = Ve, points: i = [], colorIndices: a = [], color: o = [
	.8,
	.5,
	0,
	1
], opacity: s = null, opacities: c = [], width: l = 1, widths: u = [], miter: d = !0, is2d: f = !1, zPos2d: p = 0 } = {}) => {
	if (!e) {
		console.error("Regl instance is undefined.");
		return;
	}
	let m = /* @__PURE__ */ new Float32Array(16), h, g, _, v, y, b, x, S, C, w, T, E, D, O, k, A, j, M, N = f ? 2 : 3, P = () => +(c.length === g || s !== null), F = () => {
		w = e.buffer(), T = e.buffer(), E = e.buffer(), k = e.buffer(), A = {
			prevPosition: {
				buffer: (() => w),
				offset: 0,
				stride: He * 3
			},
			currPosition: {
				buffer: (() => w),
				offset: He * 3 * 2,
				stride: He * 3
			},
			nextPosition: {
				buffer: (() => w),
				offset: He * 3 * 4,
				stride: He * 3
			},
			opacity: {
				buffer: (() => T),
				offset: He * 2,
				stride: He
			},
			offsetScale: {
				buffer: (() => E),
				offset: He * 2,
				stride: He
			},
			colorIndex: {
				buffer: (() => k),
				offset: He * 2,
				stride: He
			}
		}, j = e.elements(), M = e({
			attributes: A,
			depth: { enable: !f },
			blend: {
				enable: !0,
				func: {
					srcRGB: "src alpha",
					srcAlpha: "one",
					dstRGB: "one minus src alpha",
					dstAlpha: "one minus src alpha"
				}
			},
			uniforms: {
				projectionViewModel: (e, t) => {
					let n = e.projection || t.projection, r = e.model || t.model, i = e.view || t.view;
					return U(m, n, U(m, i, r));
				},
				aspectRatio: ({ viewportWidth: e, viewportHeight: t }) => e / t,
				colorTex: () => D,
				colorTexRes: () => O,
				colorTexEps: () => .5 / O,
				pixelRatio: ({ pixelRatio: e }) => e,
				width: ({ pixelRatio: e, viewportHeight: t }) => l / t * e,
				useOpacity: P,
				useColorOpacity: () => Number(!P()),
				miter: Number(!!d)
			},
			elements: () => j,
			vert: Z,
			frag: X
		});
	}, ee = () => {
		h === 1 && i.length % N > 0 && console.warn(`The length of points (${g}) does not match the dimensions (${N}). Incomplete points are ignored.`), v = i.flat().slice(0, g * N), f && (v = Xe(v, 2, 3, p)), a.length !== g && (a = Array(g).fill(0)), u.length !== g && (u = Array(g).fill(1));
		let e = a.slice(), t = c.length === g ? c.slice() : Array(g).fill(s === null ? 1 : s), n = u.slice(), r = 0;
		for (let i of _) {
			let a = r + i - 1;
			Ye(v, a, a, 3), Ye(v, r, r, 3), Ye(e, a, a, 1), Ye(e, r, r, 1), Ye(t, a, a, 1), Ye(t, r, r, 1), Ye(n, a, a, 1), Ye(n, r, r, 1), r += i + 2;
		}
		y = new Float32Array(Je(v, 3)), b = Je(e), x = Je(t), S = Je(n, 1, -1), C = qe(_), w({
			usage: "dynamic",
			type: "float",
			length: y.length * He,
			data: y
		}), T({
			usage: "dynamic",
			type: "float",
			length: x.length * He,
			data: x
		}), E({
			usage: "dynamic",
			type: "float",
			length: S.length * He,
			data: S
		}), k({
			usage: "dynamic",
			type: "float",
			length: b.length * He,
			data: b
		}), j({
			primitive: "triangles",
			usage: "dynamic",
			type: C.length > 2 ** 16 ? "uint32" : "uint16",
			data: C
		});
	}, te = () => {
		I(), F();
	}, I = () => {
		i = [], v = [], y = /* @__PURE__ */ new Float32Array(), S = [], C = [], w.destroy(), E.destroy(), j.destroy();
	}, L = ({ projection: e, model: a, view: o } = {}) => {
		e && (t = e), a && (n = a), o && (r = o), i && i.length > 1 && M({
			projection: t,
			model: n,
			view: r
		});
	}, R = (e, t) => {
		let n = t.flat(2);
		return n.length === g ? n : n.length === h ? _.flatMap((e, t) => Array(e).fill(n[t])) : e;
	}, z = () => i, ne = (e = [], { colorIndices: t = a, opacities: n = c, widths: r = u, is2d: o = f } = {}) => {
		i = e, f = o, N = f ? 2 : 3, h = We(i) ? i.length : 1, _ = We(i) ? i.map((e) => Math.floor(e.length / N)) : [Math.floor(i.length / N)], g = _.reduce((e, t) => e + t, 0), a = R(a, t), c = R(c, n), u = R(u, r), i && g > 1 ? ee() : te();
	}, B = () => {
		let t = We(o) ? o : [o];
		O = Math.max(2, Math.ceil(Math.sqrt(t.length)));
		let n = new Uint8Array(O ** 2 * 4);
		t.forEach((e, t) => {
			n[t * 4] = Math.min(255, Math.max(0, Math.round(e[0] * 255))), n[t * 4 + 1] = Math.min(255, Math.max(0, Math.round(e[1] * 255))), n[t * 4 + 2] = Math.min(255, Math.max(0, Math.round(e[2] * 255))), n[t * 4 + 3] = Number.isNaN(+e[3]) ? 255 : Math.min(255, Math.max(0, Math.round(e[3] * 255)));
		}), D = e.texture({
			data: n,
			shape: [
				O,
				O,
				4
			]
		});
	}, re = (e, t = s) => {
		o = e, s = t, D && D.destroy(), B();
	};
	return F(), B(), i && i.length > 1 && ne(i), {
		clear: te,
		destroy: I,
		draw: L,
		getPoints: z,
		setPoints: ne,
		getData: () => ({
			points: y,
			widths: S,
			opacities: x,
			colorIndices: b
		}),
		getBuffer: () => ({
			points: w,
			widths: E,
			opacities: T,
			colorIndices: k
		}),
		getStyle: () => ({
			color: o,
			miter: d,
			width: l
		}),
		setStyle: ({ color: e, opacity: t, miter: n, width: r } = {}) => {
			e && re(e, t || s), n && (d = !!n), Ue(r) && (l = r);
		}
	};
}, Qe = "1.16.0", $e = "\nprecision mediump float;\n\nuniform sampler2D texture;\n\nvarying vec2 uv;\n\nvoid main () {\n  gl_FragColor = texture2D(texture, uv);\n}\n", et = "\nprecision mediump float;\n\nuniform mat4 modelViewProjection;\n\nattribute vec2 position;\n\nvarying vec2 uv;\n\nvoid main () {\n  uv = position;\n  gl_Position = modelViewProjection * vec4(-1.0 + 2.0 * uv.x, 1.0 - 2.0 * uv.y, 0, 1);\n}\n", tt = "auto", nt = 0, rt = 1, it = 2, at = 3, ot = 4, st = Float32Array.BYTES_PER_ELEMENT, ct = [
	"OES_texture_float",
	"OES_element_index_uint",
	"WEBGL_color_buffer_float",
	"EXT_float_blend"
], lt = {
	color: [
		0,
		0,
		0,
		0
	],
	depth: 1
}, ut = "panZoom", dt = "lasso", ft = "rotate", pt = [
	ut,
	dt,
	ft
], mt = ut, ht = {
	cubicIn: w,
	cubicInOut: T,
	cubicOut: E,
	linear: D,
	quadIn: O,
	quadInOut: k,
	quadOut: A
}, gt = T, _t = "continuous", vt = "categorical", yt = [_t, vt], bt = "deselect", xt = "lassoEnd", St = [bt, xt], Ct = 3, wt = [
	0,
	.666666667,
	1,
	1
], Tt = 2, Et = !1, Dt = 10, Ot = 3, kt = xt, At = !1, jt = 750, Mt = 500, Nt = 100, Pt = 250, Ft = 24, It = "lasso", Lt = "rotate", Rt = "merge", zt = "remove", Bt = [
	It,
	Lt,
	Rt,
	zt
], Vt = "alt", Ht = "cmd", Ut = "ctrl", Wt = "meta", Gt = "shift", Kt = [
	Vt,
	Ht,
	Ut,
	Wt,
	Gt
], qt = {
	[zt]: Vt,
	[Lt]: Vt,
	[It]: Gt,
	[Rt]: Ht
}, Jt = 1, Yt = tt, Xt = tt, Zt = 1, Qt = 1, $t = "asinh", en = 6, tn = 2, nn = 2, rn = null, an = null, on = 2, sn = 2, cn = null, ln = null, un = null, dn = .66, fn = 1, pn = null, mn = .15, hn = 25, gn = 1, _n = 1, vn = null, yn = [
	.66,
	.66,
	.66,
	fn
], bn = [
	0,
	.55,
	1,
	1
], xn = [
	1,
	1,
	1,
	1
], Sn = [
	0,
	0,
	0,
	1
], Cn = null, wn = [
	.66,
	.66,
	.66,
	.2
], Tn = [
	0,
	.55,
	1,
	1
], En = [
	1,
	1,
	1,
	1
], Dn = [
	1,
	1,
	1,
	.5
], On = 1, kn = 1e3, An = [0, 0], jn = 1, Mn = 0, Nn = new Float32Array([
	1,
	0,
	0,
	0,
	0,
	1,
	0,
	0,
	0,
	0,
	1,
	0,
	0,
	0,
	0,
	1
]), Pn = "IMAGE_LOAD_ERROR", Fn = null, In = !1, Ln = [
	1,
	1,
	1,
	.5
], Rn = !0, zn = !0, Bn = !1, Vn = 100, Hn = 1 / 500, Un = "auto", Wn = !1, Gn = 200, Kn = 500, qn = /* @__PURE__ */ new Set([
	"z",
	"valueZ",
	"valueA",
	"value1",
	"category"
]), Jn = /* @__PURE__ */ new Set([
	"w",
	"valueW",
	"valueB",
	"value2",
	"value"
]), Yn = 15e3, Xn = void 0, Zn = !1, Qn = .5, $n = !1, er = "lasso", tr = Symbol("SKIP_DEPRECATION_VALUE_TRANSLATION"), nr = "Points have not been drawn", rr = "The instance was already destroyed", ir = "Ignoring draw call as the previous draw call has not yet finished. To avoid this warning `await` the draw call.", ar = () => {
	let e = [
		Int8Array,
		Uint8Array,
		Uint8ClampedArray,
		Int16Array,
		Uint16Array,
		Int32Array,
		Uint32Array,
		Float32Array,
		Float64Array
	];
	class t {
		static from(n) {
			if (!(n instanceof ArrayBuffer)) throw Error("Data must be an instance of ArrayBuffer.");
			let [r, i] = new Uint8Array(n, 0, 2);
			if (r !== 219) throw Error("Data does not appear to be in a KDBush format.");
			let a = i >> 4;
			if (a !== 1) throw Error(`Got v${a} data when expected v1.`);
			let o = e[i & 15];
			if (!o) throw Error("Unrecognized array type.");
			let [s] = new Uint16Array(n, 2, 1), [c] = new Uint32Array(n, 4, 1);
			return new t(c, s, o, n);
		}
		constructor(t, n = 64, r = Float64Array, i) {
			if (isNaN(t) || t < 0) throw Error(`Unexpected numItems value: ${t}.`);
			this.numItems = +t, this.nodeSize = Math.min(Math.max(+n, 2), 65535), this.ArrayType = r, this.IndexArrayType = t < 65536 ? Uint16Array : Uint32Array;
			let a = e.indexOf(this.ArrayType), o = t * 2 * this.ArrayType.BYTES_PER_ELEMENT, s = t * this.IndexArrayType.BYTES_PER_ELEMENT, c = (8 - s % 8) % 8;
			if (a < 0) throw Error(`Unexpected typed array class: ${r}.`);
			i && i instanceof ArrayBuffer ? (this.data = i, this.ids = new this.IndexArrayType(this.data, 8, t), this.coords = new this.ArrayType(this.data, 8 + s + c, t * 2), this._pos = t * 2, this._finished = !0) : (this.data = new ArrayBuffer(8 + o + s + c), this.ids = new this.IndexArrayType(this.data, 8, t), this.coords = new this.ArrayType(this.data, 8 + s + c, t * 2), this._pos = 0, this._finished = !1, new Uint8Array(this.data, 0, 2).set([219, 16 + a]), new Uint16Array(this.data, 2, 1)[0] = n, new Uint32Array(this.data, 4, 1)[0] = t);
		}
		add(e, t) {
			let n = this._pos >> 1;
			return this.ids[n] = n, this.coords[this._pos++] = e, this.coords[this._pos++] = t, n;
		}
		finish() {
			let e = this._pos >> 1;
			if (e !== this.numItems) throw Error(`Added ${e} items when expected ${this.numItems}.`);
			return n(this.ids, this.coords, this.nodeSize, 0, this.numItems - 1, 0), this._finished = !0, this;
		}
		range(e, t, n, r) {
			if (!this._finished) throw Error("Data not yet indexed - call index.finish().");
			let { ids: i, coords: a, nodeSize: o } = this, s = [
				0,
				i.length - 1,
				0
			], c = [];
			for (; s.length;) {
				let l = s.pop() || 0, u = s.pop() || 0, d = s.pop() || 0;
				if (u - d <= o) {
					for (let o = d; o <= u; o++) {
						let s = a[2 * o], l = a[2 * o + 1];
						s >= e && s <= n && l >= t && l <= r && c.push(i[o]);
					}
					continue;
				}
				let f = d + u >> 1, p = a[2 * f], m = a[2 * f + 1];
				p >= e && p <= n && m >= t && m <= r && c.push(i[f]), (l === 0 ? e <= p : t <= m) && (s.push(d), s.push(f - 1), s.push(1 - l)), (l === 0 ? n >= p : r >= m) && (s.push(f + 1), s.push(u), s.push(1 - l));
			}
			return c;
		}
		within(e, t, n) {
			if (!this._finished) throw Error("Data not yet indexed - call index.finish().");
			let { ids: r, coords: i, nodeSize: a } = this, s = [
				0,
				r.length - 1,
				0
			], c = [], l = n * n;
			for (; s.length;) {
				let u = s.pop() || 0, d = s.pop() || 0, f = s.pop() || 0;
				if (d - f <= a) {
					for (let n = f; n <= d; n++) o(i[2 * n], i[2 * n + 1], e, t) <= l && c.push(r[n]);
					continue;
				}
				let p = f + d >> 1, m = i[2 * p], h = i[2 * p + 1];
				o(m, h, e, t) <= l && c.push(r[p]), (u === 0 ? e - n <= m : t - n <= h) && (s.push(f), s.push(p - 1), s.push(1 - u)), (u === 0 ? e + n >= m : t + n >= h) && (s.push(p + 1), s.push(d), s.push(1 - u));
			}
			return c;
		}
	}
	function n(e, t, i, a, o, s) {
		if (o - a <= i) return;
		let c = a + o >> 1;
		r(e, t, c, a, o, s), n(e, t, i, a, c - 1, 1 - s), n(e, t, i, c + 1, o, 1 - s);
	}
	function r(e, t, n, a, o, s) {
		for (; o > a;) {
			if (o - a > 600) {
				let i = o - a + 1, c = n - a + 1, l = Math.log(i), u = .5 * Math.exp(2 * l / 3), d = .5 * Math.sqrt(l * u * (i - u) / i) * (c - i / 2 < 0 ? -1 : 1);
				r(e, t, n, Math.max(a, Math.floor(n - c * u / i + d)), Math.min(o, Math.floor(n + (i - c) * u / i + d)), s);
			}
			let c = t[2 * n + s], l = a, u = o;
			for (i(e, t, a, n), t[2 * o + s] > c && i(e, t, a, o); l < u;) {
				for (i(e, t, l, u), l++, u--; t[2 * l + s] < c;) l++;
				for (; t[2 * u + s] > c;) u--;
			}
			t[2 * a + s] === c ? i(e, t, a, u) : (u++, i(e, t, u, o)), u <= n && (a = u + 1), n <= u && (o = u - 1);
		}
	}
	function i(e, t, n, r) {
		a(e, n, r), a(t, 2 * n, 2 * r), a(t, 2 * n + 1, 2 * r + 1);
	}
	function a(e, t, n) {
		let r = e[t];
		e[t] = e[n], e[n] = r;
	}
	function o(e, t, n, r) {
		let i = e - n, a = t - r;
		return i * i + a * a;
	}
	return t;
}, or = () => {
	addEventListener("message", (e) => {
		let t = e.data.points;
		t.length === 0 && self.postMessage({ error: /* @__PURE__ */ Error("Invalid point data") });
		let n = new KDBush(t.length, e.data.nodeSize);
		for (let [e, r] of t) n.add(e, r);
		n.finish(), postMessage(n.data, [n.data]);
	});
}, sr = ar(), cr = 1e6, lr = (e) => {
	let t = `const createKDBushClass = ${ar.toString()};KDBush = createKDBushClass();const createWorker = ${e.toString()};createWorker();`, n = new Blob([t], { type: "text/javascript" }), r = URL.createObjectURL(n), i = new Worker(r, { name: "KDBush" });
	return URL.revokeObjectURL(r), i;
}, ur = (e, t = {
	nodeSize: 16,
	useWorker: void 0
}) => new Promise((n, r) => {
	if (e instanceof ArrayBuffer) n(sr.from(e));
	else if ((e.length < cr || t.useWorker === !1) && t.useWorker !== !0) {
		let r = new sr(e.length, t.nodeSize);
		for (let t of e) r.add(t[0], t[1]);
		r.finish(), n(r);
	} else {
		let i = lr(or);
		i.onmessage = (e) => {
			e.data.error ? r(e.data.error) : n(sr.from(e.data)), i.terminate();
		}, i.postMessage({
			points: e,
			nodeSize: t.nodeSize
		});
	}
}), dr = !0, fr = 8, pr = 2, mr = "freeform", hr = 24, gr = 2500, _r = 250, vr = (e, t, n) => (1 - e) * t + n, yr = (e, t) => `${e}ms ease-out mainIn ${t}ms 1 normal forwards`, Q = (e, t) => `${e}ms ease-out effectIn ${t}ms 1 normal forwards`, br = (e, t) => `${e}ms linear leftSpinIn ${t}ms 1 normal forwards`, xr = (e, t) => `${e}ms linear rightSpinIn ${t}ms 1 normal forwards`, Sr = (e, t) => `${e}ms linear circleIn ${t}ms 1 normal forwards`, Cr = (e, t, n) => `
  @keyframes mainIn {
    0% {
      color: ${t};
      opacity: 0;
    }
    0%, ${e}% {
      color: ${t};
      opacity: 1;
    }
    100% {
      color: ${n};
      opacity: 0.8;
    }
  }
`, wr = (e, t, n, r) => `
  @keyframes effectIn {
    0%, ${e}% {
      opacity: ${n};
      transform: scale(${r});
    }
    ${t}% {
      opacity: 0.66;
      transform: scale(1.5);
    }
    99% {
      opacity: 0;
      transform: scale(2);
    }
    100% {
      opacity: 0;
      transform: scale(0);
    }
  }
`, Tr = (e, t, n) => `
  @keyframes circleIn {
    0% {
      clip-path: ${t};
      opacity: ${n};
    }
    ${e}% {
      clip-path: ${t};
      opacity: 1;
    }
    ${e + .01}%, 100% {
      clip-path: inset(0);
      opacity: 1;
    }
  }
`, Er = (e, t) => `
  @keyframes leftSpinIn {
    0% {
      transform: rotate(${t}deg);
    }
    ${e}%, 100% {
      transform: rotate(360deg);
    }
  }
`, Dr = (e, t) => `
  @keyframes rightSpinIn {
    0% {
      transform: rotate(${t}deg);
    }
    ${e}%, 100% {
      transform: rotate(180deg);
    }
  }
`, Or = ({ time: e = jt, extraTime: t = Mt, delay: n = Nt, currentColor: r, targetColor: i, effectOpacity: a, effectScale: o, circleLeftRotation: s, circleRightRotation: c, circleClipPath: l, circleOpacity: u }) => {
	let d = s / 360, f = vr(d, e, t), p = Math.round((1 - d) * e / f * 100), m = Math.round(p / 2), h = p + (100 - p) / 4;
	return {
		rules: {
			main: Cr(p, r, i),
			effect: wr(p, h, a, o),
			circleRight: Dr(m, c),
			circleLeft: Er(p, s),
			circle: Tr(m, l, u)
		},
		names: {
			main: yr(f, n),
			effect: Q(f, n),
			circleLeft: br(f, n),
			circleRight: xr(f, n),
			circle: Sr(f, n)
		}
	};
}, kr = (e) => `${e}ms linear mainOut 0s 1 normal forwards`, Ar = (e) => `${e}ms linear effectOut 0s 1 normal forwards`, jr = (e) => `${e}ms linear leftSpinOut 0s 1 normal forwards`, Mr = (e) => `${e}ms linear rightSpinOut 0s 1 normal forwards`, Nr = (e) => `${e}ms linear circleOut 0s 1 normal forwards`, Pr = (e, t) => `
  @keyframes mainOut {
    0% {
      color: ${e};
    }
    100% {
      color: ${t};
    }
  }
`, Fr = (e, t) => `
  @keyframes effectOut {
    0% {
      opacity: ${e};
      transform: scale(${t});
    }
    99% {
      opacity: 0;
      transform: scale(${t + .5});
    }
    100% {
      opacity: 0;
      transform: scale(0);
    }
  }
`, Ir = (e, t) => `
  @keyframes rightSpinOut {
    0%, ${e}% {
      transform: rotate(${t}deg);
    }
    100% {
      transform: rotate(0deg);
    }
`, Lr = (e) => `
  @keyframes leftSpinOut {
    0% {
      transform: rotate(${e}deg);
    }
    100% {
      transform: rotate(0deg);
    }
  }
`, Rr = (e, t, n) => `
  @keyframes circleOut {
    0%, ${e}% {
      clip-path: ${t};
      opacity: ${n};
    }
    ${e + .01}% {
      clip-path: inset(0 0 0 50%);
      opacity: ${n};
    }
    100% {
      clip-path: inset(0 0 0 50%);
      opacity: 0;
    }
  }
`, zr = ({ time: e = Pt, currentColor: t, targetColor: n, effectOpacity: r, effectScale: i, circleLeftRotation: a, circleRightRotation: o, circleClipPath: s, circleOpacity: c }) => {
	let l = a / 360, u = l * e, d = Math.min(100, l * 100), f = d > 50 ? Math.round((1 - 50 / d) * 100) : 0;
	return {
		rules: {
			main: Pr(t, n),
			effect: Fr(r, i),
			circleRight: Ir(f, o),
			circleLeft: Lr(a),
			circle: Rr(f, s, c)
		},
		names: {
			main: kr(u),
			effect: Ar(u),
			circleRight: jr(u),
			circleLeft: Mr(u),
			circle: Nr(u)
		}
	};
}, Br = () => {
	let e = document.createElement("div");
	e.id = `lasso-long-press-${Math.random().toString(36).substring(2, 5) + Math.random().toString(36).substring(2, 5)}`, e.style.position = "fixed", e.style.width = "1.25rem", e.style.height = "1.25rem", e.style.pointerEvents = "none", e.style.transform = "translate(-50%,-50%)";
	let t = document.createElement("div");
	t.style.position = "absolute", t.style.top = 0, t.style.left = 0, t.style.width = "1.25rem", t.style.height = "1.25rem", t.style.clipPath = "inset(0px 0px 0px 50%)", t.style.opacity = 0, e.appendChild(t);
	let n = document.createElement("div");
	n.style.position = "absolute", n.style.top = 0, n.style.left = 0, n.style.width = "0.8rem", n.style.height = "0.8rem", n.style.border = "0.2rem solid currentcolor", n.style.borderRadius = "0.8rem", n.style.clipPath = "inset(0px 50% 0px 0px)", n.style.transform = "rotate(0deg)", t.appendChild(n);
	let r = document.createElement("div");
	r.style.position = "absolute", r.style.top = 0, r.style.left = 0, r.style.width = "0.8rem", r.style.height = "0.8rem", r.style.border = "0.2rem solid currentcolor", r.style.borderRadius = "0.8rem", r.style.clipPath = "inset(0px 50% 0px 0px)", r.style.transform = "rotate(0deg)", t.appendChild(r);
	let i = document.createElement("div");
	return i.style.position = "absolute", i.style.top = 0, i.style.left = 0, i.style.width = "1.25rem", i.style.height = "1.25rem", i.style.borderRadius = "1.25rem", i.style.background = "currentcolor", i.style.transform = "scale(0)", i.style.opacity = 0, e.appendChild(i), {
		longPress: e,
		longPressCircle: t,
		longPressCircleLeft: n,
		longPressCircleRight: r,
		longPressEffect: i
	};
}, Vr = (e, t, n) => {
	if (e.length === 0) return 0;
	if (e.length === 1) return e[0];
	let r = 2 ** (-1 / t), i = Math.max(0, e.length - n), a = e.slice(i), o = 0, s = 0, c = 0;
	for (let e = a.length - 1; e >= 0; e--) {
		let t = r ** (a.length - 1 - e);
		o += a[e][0] * t, s += a[e][1] * t, c += t;
	}
	return [o / c, s / c];
}, Hr = (e, t = null) => e === null ? t : e, Ur, Wr = () => {
	if (!Ur) {
		let e = document.createElement("style");
		document.head.appendChild(e), Ur = e.sheet;
	}
	return Ur;
}, Gr = (e) => {
	let t = Wr(), n = t.rules.length;
	return t.insertRule(e, n), n;
}, Kr = (e) => {
	Wr().deleteRule(e);
}, qr = `${gr}ms ease scaleInFadeOut 0s 1 normal backwards`, Jr = (e, t, n) => `
@keyframes scaleInFadeOut {
  0% {
    opacity: ${e};
    transform: translate(-50%,-50%) scale(${t}) rotate(${n}deg);
  }
  10% {
    opacity: 1;
    transform: translate(-50%,-50%) scale(1) rotate(${n + 20}deg);
  }
  100% {
    opacity: 0;
    transform: translate(-50%,-50%) scale(0.9) rotate(${n + 60}deg);
  }
}
`, Yr = null, Xr = `${_r}ms ease fadeScaleOut 0s 1 normal backwards`, Zr = (e, t, n) => `
@keyframes fadeScaleOut {
  0% {
    opacity: ${e};
    transform: translate(-50%,-50%) scale(${t}) rotate(${n}deg);
  }
  100% {
    opacity: 0;
    transform: translate(-50%,-50%) scale(0) rotate(${n}deg);
  }
}
`, Qr = null, $r = (e, { onDraw: t = j, onStart: n = j, onEnd: r = j, enableInitiator: i = dr, initiatorParentElement: a = document.body, longPressIndicatorParentElement: o = document.body, minDelay: s = fr, minDist: c = pr, pointNorm: l = j, type: u = mr, brushSize: d = hr } = {}) => {
	let f = i, p = a, m = o, h = t, g = n, _ = r, v = s, y = c, b = l, x = u, S = d, C = document.createElement("div");
	C.id = `lasso-initiator-${Math.random().toString(36).substring(2, 5) + Math.random().toString(36).substring(2, 5)}`, C.style.position = "fixed", C.style.display = "flex", C.style.justifyContent = "center", C.style.alignItems = "center", C.style.zIndex = 99, C.style.width = "4rem", C.style.height = "4rem", C.style.borderRadius = "4rem", C.style.opacity = .5, C.style.transform = "translate(-50%,-50%) scale(0) rotate(0deg)";
	let { longPress: w, longPressCircle: T, longPressCircleLeft: E, longPressCircleRight: D, longPressEffect: O } = Br(), k = !1, A = !1, M = [], P = [], F = [], ee = [], ne, V = !1, H = null, ie = null, ae = null, oe = null, U = null, W = null, G = null, se = null, ce = null, le = null, ue = () => {
		k = !1;
	}, K = (t) => {
		let { left: n, top: r } = e.getBoundingClientRect();
		return [t.clientX - n, t.clientY - r];
	};
	window.addEventListener("mouseup", ue);
	let de = () => {
		C.style.opacity = .5, C.style.transform = "translate(-50%,-50%) scale(0) rotate(0deg)";
	}, fe = (e, t) => {
		let n = getComputedStyle(e), r = +n.opacity, i = n.transform.match(/([0-9.-]+)+/g), a = +i[0], o = +i[1], s = Math.sqrt(a * a + o * o), c = 180 / Math.PI * Math.atan2(o, a);
		return c = t && c <= 0 ? 360 + c : c, {
			opacity: r,
			scale: s,
			rotate: c
		};
	}, pe = (e) => {
		if (!f || k) return;
		let t = e.clientX, n = e.clientY;
		C.style.top = `${n}px`, C.style.left = `${t}px`;
		let r = fe(C), i = r.opacity, a = r.scale, o = r.rotate;
		C.style.opacity = i, C.style.transform = `translate(-50%,-50%) scale(${a}) rotate(${o}deg)`, C.style.animation = "none", B().then(() => {
			Yr !== null && Kr(Yr), Yr = Gr(Jr(i, a, o)), C.style.animation = qr, B().then(() => {
				de();
			});
		});
	}, q = () => {
		let { opacity: e, scale: t, rotate: n } = fe(C);
		C.style.opacity = e, C.style.transform = `translate(-50%,-50%) scale(${t}) rotate(${n}deg)`, C.style.animation = "none", B(2).then(() => {
			Qr !== null && Kr(Qr), Qr = Gr(Zr(e, t, n)), C.style.animation = Xr, B().then(() => {
				de();
			});
		});
	}, me = (e, t, { time: n = jt, extraTime: r = Mt, delay: i = Nt } = {
		time: jt,
		extraTime: Mt,
		delay: Nt
	}) => {
		V = !0;
		let a = getComputedStyle(w);
		w.style.color = a.color, w.style.top = `${t}px`, w.style.left = `${e}px`, w.style.animation = "none";
		let o = getComputedStyle(T);
		T.style.clipPath = o.clipPath, T.style.opacity = o.opacity, T.style.animation = "none";
		let s = fe(O);
		O.style.opacity = s.opacity, O.style.transform = `scale(${s.scale})`, O.style.animation = "none";
		let c = fe(E);
		E.style.transform = `rotate(${c.rotate}deg)`, E.style.animation = "none";
		let l = fe(D);
		D.style.transform = `rotate(${l.rotate}deg)`, D.style.animation = "none", B().then(() => {
			if (!V) return;
			U !== null && Kr(U), oe !== null && Kr(oe), ae !== null && Kr(ae), ie !== null && Kr(ie), H !== null && Kr(H);
			let { rules: e, names: t } = Or({
				time: n,
				extraTime: r,
				delay: i,
				currentColor: a.color || "currentcolor",
				targetColor: w.dataset.activeColor,
				effectOpacity: s.opacity || 0,
				effectScale: s.scale || 0,
				circleLeftRotation: c.rotate || 0,
				circleRightRotation: l.rotate || 0,
				circleClipPath: o.clipPath || "inset(0 0 0 50%)",
				circleOpacity: o.opacity || 0
			});
			H = Gr(e.main), ie = Gr(e.effect), ae = Gr(e.circleLeft), oe = Gr(e.circleRight), U = Gr(e.circle), w.style.animation = t.main, O.style.animation = t.effect, E.style.animation = t.circleLeft, D.style.animation = t.circleRight, T.style.animation = t.circle;
		});
	}, he = ({ time: e = Pt } = { time: Pt }) => {
		if (!V) return;
		V = !1;
		let t = getComputedStyle(w);
		w.style.color = t.color, w.style.animation = "none";
		let n = getComputedStyle(T);
		T.style.clipPath = n.clipPath, T.style.opacity = n.opacity, T.style.animation = "none";
		let r = fe(O);
		O.style.opacity = r.opacity, O.style.transform = `scale(${r.scale})`, O.style.animation = "none";
		let i = n.clipPath.slice(-2, -1) === "x", a = fe(E, i);
		E.style.transform = `rotate(${a.rotate}deg)`, E.style.animation = "none";
		let o = fe(D);
		D.style.transform = `rotate(${o.rotate}deg)`, D.style.animation = "none", B().then(() => {
			le !== null && Kr(le), ce !== null && Kr(ce), se !== null && Kr(se), G !== null && Kr(G), W !== null && Kr(W);
			let { rules: i, names: s } = zr({
				time: e,
				currentColor: t.color || "currentcolor",
				targetColor: w.dataset.color,
				effectOpacity: r.opacity || 0,
				effectScale: r.scale || 0,
				circleLeftRotation: a.rotate || 0,
				circleRightRotation: o.rotate || 0,
				circleClipPath: n.clipPath || "inset(0px)",
				circleOpacity: n.opacity || 1
			});
			W = Gr(i.main), G = Gr(i.effect), se = Gr(i.circleLeft), ce = Gr(i.circleRight), le = Gr(i.circle), w.style.animation = s.main, O.style.animation = s.effect, E.style.animation = s.circleLeft, D.style.animation = s.circleRight, T.style.animation = s.circle;
		});
	}, ge = () => {
		h(M, P);
	}, _e = (e) => {
		M.push(e), P.push(e[0], e[1]);
	}, ve = (e) => {
		let [t, n] = e, [r, i] = M[0];
		M[1] = [t, i], M[2] = [t, n], M[3] = [r, n], M[4] = [r, i], P[2] = t, P[3] = i, P[4] = t, P[5] = n, P[6] = r, P[7] = n, P[8] = r, P[9] = i;
	}, J = (e) => {
		F.push(e);
	}, ye = () => Math.abs(b([0, 0])[0] - b([S / 2, 0])[0]), be = (e, t, n) => {
		let [r, i] = e, [a, o] = t, s = r - a, c = i - o, l = N([s, c]);
		return [+c / l * n, -s / l * n];
	}, xe = (e) => {
		let t = F.at(-1), n = ye(), [r, i] = be(e, t, n), a = F.length;
		if (a === 1) {
			let e = [t[0] + r, t[1] + i], n = [t[0] - r, t[1] - i];
			M.push(e, n), P.push(e[0], e[1], n[0], n[1]), ee.push([r, i]);
		} else {
			[r, i] = be(e, t, n);
			let o = [...ee, [r, i]];
			[r, i] = Vr(o, 1, 10);
			let [s, c] = ee.at(-1), l = (r + s) / 2, u = (i + c) / 2, d = [t[0] + l, t[1] + u], f = [t[0] - l, t[1] - u];
			M.splice(a - 1, 2, d, f), P.splice(2 * (a - 1), 4, d[0], d[1], f[0], f[1]), ee.splice(a, 1, [l, u]);
		}
		let o = [e[0] + r, e[1] + i], s = [e[0] - r, e[1] - i];
		M.splice(a, 0, o, s), P.splice(2 * a, 0, o[0], o[1], s[0], s[1]), F.push(e), ee.push([r, i]);
	}, Se = _e, Ce = _e, we = (e) => {
		if (ne) z(e[0], e[1], ne[0], ne[1]) > y && (ne = e, Se(b(e)), M.length > 1 && ge());
		else {
			A || (A = !0, g()), ne = e;
			let t = b(e);
			Ce(t);
		}
	}, Te = re(we, v, v), Ee = (e, t) => {
		let n = K(e);
		return t ? Te(n) : we(n);
	}, De = () => {
		M = [], P = [], F = [], ee = [], ne = void 0, ge();
	}, Oe = (e) => {
		pe(e);
	}, Y = () => {
		k = !0, A = !0, De(), g();
	}, ke = () => {
		q();
	}, Ae = ({ merge: e = !1, remove: t = !1 } = {}) => {
		A = !1;
		let n = [...M], r = [...P];
		return Te.cancel(), De(), n.length > 0 && _(n, r, {
			merge: e,
			remove: t
		}), n;
	}, je = (e) => {
		switch (e) {
			case "rectangle":
				x = e, Se = ve, Ce = _e;
				break;
			case "brush":
				x = e, Se = xe, Ce = J;
				break;
			default: x = "freeform", Se = _e, Ce = _e;
		}
	}, Me = (e) => {
		if (e === "onDraw") return h;
		if (e === "onStart") return g;
		if (e === "onEnd") return _;
		if (e === "enableInitiator") return f;
		if (e === "minDelay") return v;
		if (e === "minDist") return y;
		if (e === "pointNorm") return b;
		if (e === "type") return x;
		if (e === "brushSize") return S;
	}, Ne = ({ onDraw: e = null, onStart: t = null, onEnd: n = null, enableInitiator: r = null, initiatorParentElement: i = null, longPressIndicatorParentElement: a = null, minDelay: o = null, minDist: s = null, pointNorm: c = null, type: l = null, brushSize: u = null } = {}) => {
		h = Hr(e, h), g = Hr(t, g), _ = Hr(n, _), f = Hr(r, f), v = Hr(o, v), y = Hr(s, y), b = Hr(c, b), S = Hr(u, S), i !== null && i !== p && (p.removeChild(C), i.appendChild(C), p = i), a !== null && a !== m && (m.removeChild(w), a.appendChild(w), m = a), f ? (C.addEventListener("click", Oe), C.addEventListener("mousedown", Y), C.addEventListener("mouseleave", ke)) : (C.removeEventListener("mousedown", Y), C.removeEventListener("mouseleave", ke)), l !== null && je(l);
	}, Pe = () => {
		p.removeChild(C), m.removeChild(w), window.removeEventListener("mouseup", ue), C.removeEventListener("click", Oe), C.removeEventListener("mousedown", Y), C.removeEventListener("mouseleave", ke);
	};
	return p.appendChild(C), m.appendChild(w), Ne({
		onDraw: h,
		onStart: g,
		onEnd: _,
		enableInitiator: f,
		initiatorParentElement: p,
		type: x,
		brushSize: S
	}), I(R("initiator", C), R("longPressIndicator", w), (e) => te(e, {
		clear: De,
		destroy: Pe,
		end: Ae,
		extend: Ee,
		get: Me,
		set: Ne,
		showInitiator: pe,
		hideInitiator: q,
		showLongPressIndicator: me,
		hideLongPressIndicator: he
	}), L($r))({});
}, ei = "\nprecision highp float;\n\nuniform float antiAliasing;\n\nvarying vec4 color;\nvarying float finalPointSize;\n\nfloat linearstep(float edge0, float edge1, float x) {\n  return clamp((x - edge0) / (edge1 - edge0), 0.0, 1.0);\n}\n\nvoid main() {\n  vec2 c = gl_PointCoord * 2.0 - 1.0;\n  float sdf = length(c) * finalPointSize;\n  float alpha = linearstep(finalPointSize + antiAliasing, finalPointSize - antiAliasing, sdf);\n\n  gl_FragColor = vec4(color.rgb, alpha * color.a);\n}\n", ti = (e) => `
precision highp float;

uniform sampler2D colorTex;
uniform float colorTexRes;
uniform float colorTexEps;
uniform sampler2D stateTex;
uniform float stateTexRes;
uniform float stateTexEps;
uniform float devicePixelRatio;
uniform sampler2D encodingTex;
uniform float encodingTexRes;
uniform float encodingTexEps;
uniform float pointSizeExtra;
uniform float pointOpacityMax;
uniform float pointOpacityScale;
uniform float numPoints;
uniform float globalState;
uniform float isColoredByZ;
uniform float isColoredByW;
uniform float isOpacityByZ;
uniform float isOpacityByW;
uniform float isOpacityByDensity;
uniform float isSizedByZ;
uniform float isSizedByW;
uniform float isPixelAligned;
uniform float colorMultiplicator;
uniform float opacityMultiplicator;
uniform float opacityDensity;
uniform float sizeMultiplicator;
uniform float numColorStates;
uniform float pointScale;
uniform float drawingBufferWidth;
uniform float drawingBufferHeight;
uniform mat4 modelViewProjection;

attribute vec2 stateIndex;

varying vec4 color;
varying float finalPointSize;

void main() {
  vec4 state = texture2D(stateTex, stateIndex);

  if (isPixelAligned < 0.5) {
    gl_Position = modelViewProjection * vec4(state.x, state.y, 0.0, 1.0);
  } else {
    vec4 clipSpacePosition = modelViewProjection * vec4(state.x, state.y, 0.0, 1.0);
    vec2 ndcPosition = clipSpacePosition.xy / clipSpacePosition.w;
    vec2 pixelPos = 0.5 * (ndcPosition + 1.0) * vec2(drawingBufferWidth, drawingBufferHeight);
    pixelPos = floor(pixelPos + 0.5); // Snap to nearest pixel
    vec2 snappedPosition = (pixelPos / vec2(drawingBufferWidth, drawingBufferHeight)) * 2.0 - 1.0;
    gl_Position = vec4(snappedPosition, 0.0, 1.0);
  }


  // Determine color index
  float colorIndexZ =  isColoredByZ * floor(state.z * colorMultiplicator);
  float colorIndexW =  isColoredByW * floor(state.w * colorMultiplicator);

  // Multiply by the number of color states per color
  // I.e., normal, active, hover, background, etc.
  float colorIndex = (colorIndexZ + colorIndexW) * numColorStates;

  // Half a "pixel" or "texel" in texture coordinates
  float colorLinearIndex = colorIndex + globalState;

  // Need to add cEps here to avoid floating point issue that can lead to
  // dramatic changes in which color is loaded as floor(3/2.9999) = 1 but
  // floor(3/3.0001) = 0!
  float colorRowIndex = floor((colorLinearIndex + colorTexEps) / colorTexRes);

  vec2 colorTexIndex = vec2(
    (colorLinearIndex / colorTexRes) - colorRowIndex + colorTexEps,
    colorRowIndex / colorTexRes + colorTexEps
  );

  color = texture2D(colorTex, colorTexIndex);

  // Retrieve point size
  float pointSizeIndexZ = isSizedByZ * floor(state.z * sizeMultiplicator);
  float pointSizeIndexW = isSizedByW * floor(state.w * sizeMultiplicator);
  float pointSizeIndex = pointSizeIndexZ + pointSizeIndexW;

  float pointSizeRowIndex = floor((pointSizeIndex + encodingTexEps) / encodingTexRes);
  vec2 pointSizeTexIndex = vec2(
    (pointSizeIndex / encodingTexRes) - pointSizeRowIndex + encodingTexEps,
    pointSizeRowIndex / encodingTexRes + encodingTexEps
  );
  float pointSize = texture2D(encodingTex, pointSizeTexIndex).x;

  // Retrieve opacity
  ${e === 3 ? "" : `
        if (isOpacityByDensity < 0.5) {
          float opacityIndexZ = isOpacityByZ * floor(state.z * opacityMultiplicator);
          float opacityIndexW = isOpacityByW * floor(state.w * opacityMultiplicator);
          float opacityIndex = opacityIndexZ + opacityIndexW;

          float opacityRowIndex = floor((opacityIndex + encodingTexEps) / encodingTexRes);
          vec2 opacityTexIndex = vec2(
            (opacityIndex / encodingTexRes) - opacityRowIndex + encodingTexEps,
            opacityRowIndex / encodingTexRes + encodingTexEps
          );
          color.a = texture2D(encodingTex, opacityTexIndex)[${1 + e}];
        } else {
          color.a = min(1.0, opacityDensity + globalState);
        }
      `}

  color.a = min(pointOpacityMax, color.a) * pointOpacityScale;
  finalPointSize = (pointSize * pointScale) + pointSizeExtra;
  gl_PointSize = finalPointSize;
}
`, ni = "precision highp float;\n\nvarying vec4 color;\n\nvoid main() {\n  gl_FragColor = color;\n}\n", ri = "precision highp float;\n\nuniform sampler2D startStateTex;\nuniform sampler2D endStateTex;\nuniform float t;\n\nvarying vec2 particleTextureIndex;\n\nvoid main() {\n  // Interpolate x, y, and value\n  vec3 start = texture2D(startStateTex, particleTextureIndex).xyw;\n  vec3 end = texture2D(endStateTex, particleTextureIndex).xyw;\n  vec3 curr = start * (1.0 - t) + end * t;\n\n  // The category cannot be interpolated\n  float endCategory = texture2D(endStateTex, particleTextureIndex).z;\n\n  gl_FragColor = vec4(curr.xy, endCategory, curr.z);\n}", ii = "precision highp float;\n\nattribute vec2 position;\nvarying vec2 particleTextureIndex;\n\nvoid main() {\n  // map normalized device coords to texture coords\n  particleTextureIndex = 0.5 * (1.0 + position);\n\n  gl_Position = vec4(position, 0, 1);\n}", ai = (e, t) => e ? ct.reduce((n, r) => e.hasExtension(r) ? n : (t || console.warn(`WebGL: ${r} extension not supported. Scatterplot might not render properly`), !1), !0) : !1, oi = (e) => {
	let t = e.getContext("webgl", {
		antialias: !0,
		preserveDrawingBuffer: !0
	}), n = [];
	for (let e of ct) t.getExtension(e) ? n.push(e) : console.warn(`WebGL: ${e} extension not supported. Scatterplot might not render properly`);
	return (0, C.default)({
		gl: t,
		extensions: n
	});
}, si = (e, t, n, r) => Math.sqrt((e - n) ** 2 + (t - r) ** 2), ci = (e) => {
	let t = Infinity, n = -Infinity, r = Infinity, i = -Infinity;
	for (let a = 0; a < e.length; a += 2) t = e[a] < t ? e[a] : t, n = e[a] > n ? e[a] : n, r = e[a + 1] < r ? e[a + 1] : r, i = e[a + 1] > i ? e[a + 1] : i;
	return [
		t,
		r,
		n,
		i
	];
}, li = ([e, t, n, r]) => Number.isFinite(e) && Number.isFinite(t) && Number.isFinite(n) && Number.isFinite(r) && n - e > 0 && r - t > 0, ui = /^#?([a-f\d])([a-f\d])([a-f\d])$/i, di = (e, t = !1) => e.replace(ui, (e, t, n, r) => `#${t}${t}${n}${n}${r}${r}`).substring(1).match(/.{2}/g).map((e) => Number.parseInt(e, 16) / 255 ** t), fi = (e, t, { minLength: n = 0 } = {}) => Array.isArray(e) && e.length >= n && e.every(t), pi = (e) => !Number.isNaN(+e) && +e >= 0, mi = (e) => !Number.isNaN(+e) && +e > 0, hi = (e, t) => (n) => e.indexOf(n) >= 0 ? n : t, gi = (e, t = !1, n = Yn) => new Promise((r, i) => {
	let a = new Image();
	t && (a.crossOrigin = "anonymous"), a.src = e, a.onload = () => {
		r(a);
	};
	let o = () => {
		i(/* @__PURE__ */ Error(Pn));
	};
	a.onerror = o, setTimeout(o, n);
}), _i = (e, t, n = Yn) => new Promise((r, i) => {
	gi(t, t.indexOf(window.location.origin) !== 0 && t.indexOf("base64") === -1, n).then((t) => {
		r(e.texture(t));
	}).catch((e) => {
		i(e);
	});
}), vi = (e, t = !1) => [...di(e, t), 255 ** !t], yi = /(^#[0-9A-F]{6}$)|(^#[0-9A-F]{3}$)/i, bi = (e) => yi.test(e), xi = (e) => e >= 0 && e <= 1, Si = (e) => Array.isArray(e) && e.every(xi);
function Ci(e, t, n, r, i, a) {
	return (n - e) * (a - t) - (i - e) * (r - t);
}
var wi = (e, [t, n] = []) => {
	let r = 0;
	for (let i = 0, a = e.length - 2; i < e.length; i += 2) {
		let o = e[i], s = e[i + 1], c = e[a], l = e[a + 1];
		s <= n ? l > n && Ci(o, s, c, l, t, n) > 0 && r++ : l <= n && Ci(o, s, c, l, t, n) < 0 && r--, a = i;
	}
	return r !== 0;
}, Ti = (e) => typeof e == "string" || e instanceof String, Ei = (e) => Number.isInteger(e) && e >= 0 && e <= 255, Di = (e) => Array.isArray(e) && e.every(Ei), Oi = (e) => e.length === 3 && (Si(e) || Di(e)), ki = (e) => e.length === 4 && (Si(e) || Di(e)), Ai = (e) => Array.isArray(e) && e.length > 0 && (Array.isArray(e[0]) || Ti(e[0])), ji = (e, t) => !(Array.isArray(e) && Array.isArray(t)) || e.length !== t.length ? !1 : e.length === 0 ? !0 : Array.isArray(e[0]) && Array.isArray(t[0]) ? e.every(([e, n, r, i], a) => {
	let [o, s, c, l] = t[a];
	return e === o && n === s && r === c && i === l;
}) : !1, Mi = (e, t) => e > t ? e : t, Ni = (e, t) => e < t ? e : t, Pi = (e, t) => {
	if (ki(e)) {
		let n = Si(e);
		return t && n || !(t || n) ? e : t && !n ? e.map((e) => e / 255) : e.map((e) => e * 255);
	}
	if (Oi(e)) {
		let n = 255 ** !t, r = Si(e);
		return t && r || !(t || r) ? [...e, n] : t && !r ? [...e.map((e) => e / 255), n] : [...e.map((e) => e * 255), n];
	}
	return bi(e) ? vi(e, t) : (console.warn("Only HEX, RGB, and RGBA are handled by this function. Returning white instead."), t ? [
		1,
		1,
		1,
		1
	] : [
		255,
		255,
		255,
		255
	]);
}, Fi = (e) => Object.entries(e).reduce((e, [t, n]) => (e[n] = e[n] ? [...e[n], t] : t, e), {}), Ii = (e) => .21 * e[0] + .72 * e[1] + .07 * e[2], Li = (e, t, n) => Math.min(n, Math.max(t, e)), Ri = (e) => new Promise((t, n) => {
	if (!e || Array.isArray(e)) t(e);
	else {
		let r = Array.isArray(e.x) || ArrayBuffer.isView(e.x) ? e.x.length : 0, i = (Array.isArray(e.x) || ArrayBuffer.isView(e.x)) && ((t) => e.x[t]), a = (Array.isArray(e.y) || ArrayBuffer.isView(e.y)) && ((t) => e.y[t]), o = (Array.isArray(e.line) || ArrayBuffer.isView(e.line)) && ((t) => e.line[t]), s = (Array.isArray(e.lineOrder) || ArrayBuffer.isView(e.lineOrder)) && ((t) => e.lineOrder[t]), c = Object.keys(e), l = (() => {
			let t = c.find((e) => qn.has(e));
			return t && (Array.isArray(e[t]) || ArrayBuffer.isView(e[t])) && ((n) => e[t][n]);
		})(), u = (() => {
			let t = c.find((e) => Jn.has(e));
			return t && (Array.isArray(e[t]) || ArrayBuffer.isView(e[t])) && ((n) => e[t][n]);
		})();
		i && a && l && u && o && s ? t(e.x.map((e, t) => [
			e,
			a(t),
			l(t),
			u(t),
			o(t),
			s(t)
		])) : i && a && l && u && o ? t(Array.from({ length: r }, (e, t) => [
			i(t),
			a(t),
			l(t),
			u(t),
			o(t)
		])) : i && a && l && u ? t(Array.from({ length: r }, (e, t) => [
			i(t),
			a(t),
			l(t),
			u(t)
		])) : i && a && l ? t(Array.from({ length: r }, (e, t) => [
			i(t),
			a(t),
			l(t)
		])) : i && a ? t(Array.from({ length: r }, (e, t) => [i(t), a(t)])) : n(/* @__PURE__ */ Error("You need to specify at least x and y"));
	}
}), zi = (e) => Number.isFinite(e.y) && !("x" in e), Bi = (e) => Number.isFinite(e.x) && !("y" in e), Vi = (e) => Number.isFinite(e.x) && Number.isFinite(e.y) && Number.isFinite(e.width) && Number.isFinite(e.height), Hi = (e) => Number.isFinite(e.x1) && Number.isFinite(e.y1) && Number.isFinite(e.x2) && Number.isFinite(e.x2), Ui = (e) => "vertices" in e && e.vertices.length > 1, Wi = (e) => {
	if (!Array.isArray(e) || e.length < 3) return !1;
	for (let t of e) if (!Array.isArray(t) || t.length !== 2 || typeof t[0] != "number" || typeof t[1] != "number") return !1;
	return !0;
}, Gi = (e) => {
	let t = [...e], n = e.at(0), r = e.at(-1);
	return (n[0] !== r[0] || n[1] !== r[1]) && t.push(n), t;
}, Ki = (e) => {
	let t = e.length;
	for (let n = 1; n < t; n++) {
		let t = e[n], r = n - 1;
		for (; r > -1 && t < e[r];) e[r + 1] = e[r], r--;
		e[r + 1] = t;
	}
	return e;
}, qi = (e = {}) => {
	let { regl: t, canvas: n = document.createElement("canvas"), gamma: r = Zt } = e, i = !1;
	t || (t = oi(n));
	let a = ai(t), o = [n.width, n.height], s = t.framebuffer({
		width: o[0],
		height: o[1],
		colorFormat: "rgba",
		colorType: "float"
	}), c = t({
		vert: "\n      precision highp float;\n      attribute vec2 xy;\n      void main () {\n        gl_Position = vec4(xy, 0, 1);\n      }",
		frag: "\n      precision highp float;\n      uniform vec2 srcRes;\n      uniform sampler2D src;\n      uniform float gamma;\n\n      vec3 approxLinearToSRGB (vec3 rgb, float gamma) {\n        return pow(clamp(rgb, vec3(0), vec3(1)), vec3(1.0 / gamma));\n      }\n\n      void main () {\n        vec4 color = texture2D(src, gl_FragCoord.xy / srcRes);\n        gl_FragColor = vec4(approxLinearToSRGB(color.rgb, gamma), color.a);\n      }",
		attributes: { xy: [
			-4,
			-4,
			4,
			-4,
			0,
			4
		] },
		uniforms: {
			src: () => s,
			srcRes: () => o,
			gamma: () => r
		},
		count: 3,
		depth: { enable: !1 },
		blend: {
			enable: !0,
			func: {
				srcRGB: "one",
				srcAlpha: "one",
				dstRGB: "one minus src alpha",
				dstAlpha: "one minus src alpha"
			}
		}
	}), l = (e) => {
		let t = e.getContext("2d");
		t.clearRect(0, 0, e.width, e.height), t.drawImage(n, (n.width - e.width) / 2, (n.height - e.height) / 2, e.width, e.height, 0, 0, e.width, e.height);
	}, u = (e, n) => {
		t.clear(lt), s.use(() => {
			t.clear(lt), e();
		}), c(), l(n);
	}, d = () => {
		t.poll();
	}, f = /* @__PURE__ */ new Set(), p = (e) => (f.add(e), () => {
		f.delete(e);
	}), m = t.frame(() => {
		let e = f.values(), t = e.next();
		for (; !t.done;) t.value(), t = e.next();
	}), h = (e, t) => {
		let r = e === void 0 ? Math.min(window.innerWidth, window.screen.availWidth) : e, i = t === void 0 ? Math.min(window.innerHeight, window.screen.availHeight) : t;
		n.width = r * window.devicePixelRatio, n.height = i * window.devicePixelRatio, o[0] = n.width, o[1] = n.height, s.resize(...o);
	}, g = () => {
		h();
	};
	return e.canvas || (window.addEventListener("resize", g), window.addEventListener("orientationchange", g), h()), {
		get canvas() {
			return n;
		},
		get regl() {
			return t;
		},
		get gamma() {
			return r;
		},
		set gamma(e) {
			r = +e;
		},
		get isSupported() {
			return a;
		},
		get isDestroyed() {
			return i;
		},
		render: u,
		resize: h,
		onFrame: p,
		refresh: d,
		destroy: () => {
			i = !0, window.removeEventListener("resize", g), window.removeEventListener("orientationchange", g), m.cancel(), n = void 0, t.destroy(), t = void 0;
		}
	};
}, Ji = function() {
	let e = (e, t, n, r, i) => {
		let a = (r - t) * .5, o = (i - n) * .5;
		return (2 * n - 2 * r + a + o) * e * e * e + (-3 * n + 3 * r - 2 * a - o) * e * e + a * e + n;
	}, t = (t, n, r) => {
		let i = r * t, a = Math.floor(i), o = i - a, s = n[Math.max(0, a - 1)], c = n[a], l = n[Math.min(r, a + 1)], u = n[Math.min(r, a + 2)];
		return [e(o, s[0], c[0], l[0], u[0]), e(o, s[1], c[1], l[1], u[1])];
	}, n = (e, t, n, r) => (e - n) ** 2 + (t - r) ** 2, r = (e, t, n) => {
		let r = t[0], i = t[1], a = n[0] - r, o = n[1] - i;
		if (a !== 0 || o !== 0) {
			let t = ((e[0] - r) * a + (e[1] - i) * o) / (a * a + o * o);
			t > 1 ? (r = n[0], i = n[1]) : t > 0 && (r += a * t, i += o * t);
		}
		return a = e[0] - r, o = e[1] - i, a * a + o * o;
	}, i = (e, t, n, a, o) => {
		let s = a, c;
		for (let i = t + 1; i < n; i++) {
			let a = r(e[i], e[t], e[n]);
			a > s && (c = i, s = a);
		}
		s > a && (c - t > 1 && i(e, t, c, a, o), o.push(e[c]), n - c > 1 && i(e, c, n, a, o));
	}, a = (e, t) => {
		let n = e.length - 1, r = [e[0]];
		return i(e, 0, n, t, r), r.push(e[n]), r;
	}, o = (e, { maxIntPointsPerSegment: r = 100, tolerance: i = .002 } = {}) => {
		let o = e.length, s = o - 1, c = s * r + 1, l = i ** 2, u = [], d;
		for (let i = 0; i < o - 1; i++) {
			let o = [e[i].slice(0, 2)];
			d = e[i];
			for (let a = 1; a < r; a++) {
				let u = (i * r + a) / c, f = t(u, e, s);
				n(d[0], d[1], f[0], f[1]) > l && (o.push(f), d = f);
			}
			o.push(e[i + 1]), o = a(o, l), u = u.concat(o.slice(0, o.length - 1));
		}
		return u.push(e[e.length - 1].slice(0, 2)), u.flat();
	}, s = (e) => {
		let t = {}, n = !Number.isNaN(+e[0][5]);
		return e.forEach((e) => {
			let r = e[4];
			t[r] || (t[r] = []), n ? t[r][e[5]] = e : t[r].push(e);
		}), Object.entries(t).forEach((e) => {
			t[e[0]] = e[1].filter((e) => e), t[e[0]].reference = e[1][0];
		}), t;
	};
	self.onmessage = function(e) {
		e.data.points && +e.data.points.length || self.postMessage({ error: /* @__PURE__ */ Error("No points provided") }), e.data.points;
		let t = s(e.data.points);
		self.postMessage({ points: Object.entries(t).reduce((t, n) => (t[n[0]] = o(n[1], e.data.options), t[n[0]].reference = n[1].reference, t), {}) });
	};
}, Yi = (e, t = {
	tolerance: .002,
	maxIntPointsPerSegment: 100
}) => new Promise((n, r) => {
	let i = ne(Ji);
	i.onmessage = (e) => {
		e.data.error ? r(e.data.error) : n(e.data.points), i.terminate();
	}, i.postMessage({
		points: e,
		options: t
	});
}), Xi = {
	showRecticle: {
		replacement: "showReticle",
		removalVersion: "2",
		translation: j
	},
	recticleColor: {
		replacement: "reticleColor",
		removalVersion: "2",
		translation: j
	},
	keyMap: {
		replacement: "actionKeyMap",
		removalVersion: "2",
		translation: Fi
	}
}, Zi = (e) => {
	let t = Object.keys(e).filter((e) => Xi[e]);
	for (let n of t) {
		let { replacement: t, removalVersion: r, translation: i } = Xi[n];
		console.warn(`regl-scatterplot: the "${n}" property is deprecated and will be removed in v${r}. Please use "${t}" instead.`), e[Xi[n].replacement] = e[n] === tr ? e[n] : i(e[n]), delete e[n];
	}
	return e;
}, Qi = (e, t, { allowSegment: n = !1, allowDensity: r = !1, allowInherit: i = !1 } = {}) => qn.has(e) ? "valueZ" : Jn.has(e) ? "valueW" : e === "segment" ? n ? "segment" : t : e === "density" ? r ? "density" : t : e === "inherit" && i ? "inherit" : t, $i = (e) => {
	switch (e) {
		case "valueZ": return 2;
		case "valueW": return 3;
		default: return null;
	}
}, ea = (e = {}) => {
	let t = b({
		async: !e.syncEvents,
		caseInsensitive: !0
	}), n = /* @__PURE__ */ new Float32Array(16), r = /* @__PURE__ */ new Float32Array(16), i = [0, 0];
	Zi(e);
	let { renderer: a, antiAliasing: o = Qn, pixelAligned: s = $n, backgroundColor: c = Sn, backgroundImage: l = Fn, canvas: u = document.createElement("canvas"), colorBy: d = vn, deselectOnDblClick: f = Rn, deselectOnEscape: p = zn, lassoColor: m = wt, lassoLineWidth: h = Tt, lassoMinDelay: g = Dt, lassoMinDist: _ = Ot, lassoClearEvent: v = kt, lassoInitiator: y = Et, lassoInitiatorParentElement: x = document.body, lassoLongPressIndicatorParentElement: S = document.body, lassoOnLongPress: C = At, lassoLongPressTime: w = jt, lassoLongPressAfterEffectTime: T = Mt, lassoLongPressEffectDelay: E = Nt, lassoLongPressRevertEffectTime: D = Pt, lassoType: O = er, lassoBrushSize: k = Ft, actionKeyMap: A = qt, mouseMode: N = mt, showReticle: te = In, reticleColor: I = Ln, pointColor: L = yn, pointColorActive: R = bn, pointColorHover: z = xn, showPointConnections: ne = Bn, pointConnectionColor: B = wn, pointConnectionColorActive: V = Tn, pointConnectionColorHover: H = En, pointConnectionColorBy: ie = Cn, pointConnectionOpacity: W = ln, pointConnectionOpacityBy: se = un, pointConnectionOpacityActive: ce = dn, pointConnectionSize: le = on, pointConnectionSizeActive: ue = sn, pointConnectionSizeBy: de = cn, pointConnectionMaxIntPointsPerSegment: fe = Vn, pointConnectionTolerance: pe = Hn, pointSize: q = en, pointSizeSelected: me = tn, pointSizeMouseDetection: _e = Un, pointOutlineWidth: ve = nn, opacity: J = tt, opacityBy: ye = pn, opacityByDensityFill: be = mn, opacityInactiveMax: xe = gn, opacityInactiveScale: Se = _n, sizeBy: Ce = rn, pointOrder: we = an, pointScaleMode: Te = $t, height: Ee = Xt, width: De = Yt, annotationLineColor: Oe = Dn, annotationLineWidth: Y = On, annotationHVLineLimit: ke = kn, cameraIsFixed: Ae = Zn } = e, je = De === tt ? 1 : De, Me = Ee === tt ? 1 : Ee, { performanceMode: Ne = Wn, opacityByDensityDebounceTime: Pe = hn, spatialIndexUseWorker: Fe = Xn } = e, Ie = !!(e.renderPointsAsSquares || Ne), Le = !!(e.disableAlphaBlending || Ne);
	N = hi(pt, ut)(N), a || (a = qi({
		regl: e.regl,
		gamma: e.gamma
	})), c = Pi(c, !0), m = Pi(m, !0), I = Pi(I, !0);
	let Re = !1, ze = !1, Be = Ii(c), X, Z, Ve, He = !1, Ue = null, We = [0, 0], Ge = -1, Ke = [], qe = /* @__PURE__ */ new Set(), Je = /* @__PURE__ */ new Set(), Ye = !1, Xe = /* @__PURE__ */ new Set(), ct = [], lt = 0, Zt = 0, fn = !1, Pn = [], qn, Jn, ar = e.aspectRatio || Jt, or, sr, cr, lr, dr, fr, pr, mr, hr, gr, _r, vr, yr = !1, Q = !0, br = !1, xr;
	L = Ai(L) ? [...L] : [L], R = Ai(R) ? [...R] : [R], z = Ai(z) ? [...z] : [z], L = L.map((e) => Pi(e, !0)), R = R.map((e) => Pi(e, !0)), z = z.map((e) => Pi(e, !0)), J = !Array.isArray(J) && Number.isNaN(+J) ? L[0][3] : J, J = fi(J, pi, { minLength: 1 }) ? [...J] : [J], q = fi(q, pi, { minLength: 1 }) ? [...q] : [q];
	let Sr = Qt / q[0];
	B === "inherit" ? B = [...L] : (B = Ai(B) ? [...B] : [B], B = B.map((e) => Pi(e, !0))), V === "inherit" ? V = [...R] : (V = Ai(V) ? [...V] : [V], V = V.map((e) => Pi(e, !0))), H === "inherit" ? H = [...z] : (H = Ai(H) ? [...H] : [H], H = H.map((e) => Pi(e, !0))), W = W === "inherit" ? [...J] : fi(W, pi, { minLength: 1 }) ? [...W] : [W], le = le === "inherit" ? [...q] : fi(le, pi, { minLength: 1 }) ? [...le] : [le], d = Qi(d, vn), ye = Qi(ye, pn, { allowDensity: !0 }), Ce = Qi(Ce, rn), ie = Qi(ie, Cn, {
		allowSegment: !0,
		allowInherit: !0
	}), se = Qi(se, un, { allowSegment: !0 }), de = Qi(de, cn, { allowSegment: !0 });
	let Cr, wr, Tr, Er, Dr = 0, Or = 0, kr, Ar, jr, Mr = null, Nr = null, Pr, Fr, Ir, Lr, Rr = !1, zr = null, Br, Vr, Hr = te, Ur, Wr = 0, Gr, Kr = 0, qr = !1, Jr = !1, Yr = !1, Xr = !1, Zr = vt, Qr = vt, ai, oi = !1, ui = e.xScale || null, di = e.yScale || null, gi = 0, vi = 0, yi = 0, bi = 0;
	ui && (gi = ui.domain()[0], vi = ui.domain()[1] - ui.domain()[0], ui.range([0, je])), di && (yi = di.domain()[0], bi = di.domain()[1] - di.domain()[0], di.range([Me, 0]));
	let xi = (e) => -1 + e / je * 2, Si = (e) => 1 + e / Me * -2, Ci = () => [xi(i[0]), Si(i[1])], Ei = (e, t) => {
		let r = [
			e,
			t,
			1,
			1
		];
		return K(r, r, oe(n, U(n, or, U(n, X.view, cr)))), r.slice(0, 2);
	}, Di = (e = 0) => {
		let t = So(), n = (_r[1] - vr[1]) / u.height;
		return (hr * t + e) * n;
	}, Oi = () => Ye ? ct.filter((e, t) => Xe.has(t)) : ct, ki = (e, t, n, r) => {
		let i = qn.range(e, t, n, r);
		return Ye ? i.filter((e) => Xe.has(e)) : i;
	}, Fi = () => {
		let [e, t] = Ci(), [n, r] = Ei(e, t), i = Di(4), a = ki(n - i, r - i, n + i, r + i), o = i, s = -1;
		for (let e of a) {
			let [t, i] = ct[e], a = si(t, i, n, r);
			a < o && (o = a, s = e);
		}
		return s;
	}, Ji = (e, n) => {
		Pn = e, Z.setPoints(n), t.publish("lassoExtend", { coordinates: e });
	}, Xi = (e) => {
		let t = ci(e);
		if (!li(t)) return [];
		let n = ki(...t), r = [];
		for (let t of n) wi(e, ct[t]) && r.push(t);
		return r;
	}, ea = () => {
		Pn = [], Z && Z.clear();
	}, ta = (e) => e && e.length > 4, na = (e, t) => {
		if (fr || !ne || !ta(ct[e[0]])) return;
		let n = t === 0, r = t === 1 ? (e) => Je.add(e) : j, i = Object.keys(e.reduce((e, t) => {
			let n = ct[t], r = Array.isArray(n[4]) ? n[4][0] : n[4];
			return e[r] = !0, e;
		}, {})), a = lr.getData().opacities, o = i.filter((e) => !Je.has(+e));
		for (let e of o) {
			let t = dr[e][0], i = dr[e][2], o = dr[e][3], s = t * 4 + o * 2, c = s + i * 2 + 4;
			a.__original__ === void 0 && (a.__original__ = a.slice());
			for (let e = s; e < c; e++) a[e] = n ? a.__original__[e] : ce;
			r(e);
		}
		lr.getBuffer().opacities.subdata(a, 0);
	}, ra = (e) => [e % Dr / Dr + Or, Math.floor(e / Dr) / Dr + Or], ia = (e) => Ye && !Xe.has(e), aa = ({ preventEvent: e = !1 } = {}) => {
		v === bt && ea(), Ke.length > 0 && (e || t.publish("deselect"), Je.clear(), na(Ke, 0), Ke = [], qe.clear(), Q = !0);
	}, oa = (e) => {
		if (!(ui && di)) return console.warn("xScale and yScale must be defined for programmatic lasso selection"), null;
		let t = [];
		for (let [n, r] of e) {
			let e = (n - gi) / vi, i = (r - yi) / bi, a = e * 2 - 1, o = i * 2 - 1, [s, c] = Ei(a, o);
			t.push(s, c);
		}
		return t;
	}, sa = (e, { merge: n = !1, remove: r = !1, preventEvent: i = !1 } = {}) => {
		let a = Array.isArray(e) ? e : [e], o = [...Ke];
		if (n) {
			if (Ke = ee(Ke, a), o.length === Ke.length) {
				Q = !0;
				return;
			}
		} else if (r) {
			let e = new Set(a);
			if (Ke = Ke.filter((t) => !e.has(t)), o.length === Ke.length) {
				Q = !0;
				return;
			}
		} else {
			if (Ke?.length > 0 && na(Ke, 0), o.length > 0 && a.length === 0) {
				aa({ preventEvent: i });
				return;
			}
			Ke = a;
		}
		if (M(o, Ke)) {
			Q = !0;
			return;
		}
		let s = [];
		qe.clear(), Je.clear();
		for (let e = Ke.length - 1; e >= 0; e--) {
			let t = Ke[e];
			t < 0 || t >= lt || ia(t) ? Ke.splice(e, 1) : (qe.add(t), s.push.apply(s, ra(t)));
		}
		Ar({
			usage: "dynamic",
			type: "float",
			data: s
		}), na(Ke, 1), i || t.publish("select", { points: Ke }), Q = !0;
	}, ca = (e, { merge: t = !1, remove: n = !1, isGl: r = !1 } = {}) => {
		if (!Wi(e)) throw Error("Lasso selection requires at least 3 vertices as [x, y] coordinate pairs");
		let i = Gi(e), a, o;
		if (r) a = i, o = i.flat();
		else {
			if (o = oa(i), !o) throw Error("xScale and yScale must be defined to convert lasso vertices from data space to GL space");
			a = [];
			for (let e = 0; e < o.length; e += 2) a.push([o[e], o[e + 1]]);
		}
		fa(a, o, {
			merge: t,
			remove: n
		});
	}, la = (e, { showReticleOnce: n = !1, preventEvent: r = !1 } = {}) => {
		let i = !1;
		if ((!Ye || Xe.has(e)) && e >= 0 && e < lt) {
			i = !0;
			let n = ai, a = e !== ai;
			+n >= 0 && a && !qe.has(n) && na([n], 0), ai = e, jr.subdata(ra(e)), qe.has(e) || na([e], 2), a && !r && t.publish("pointover", ai);
		} else i = +ai >= 0, i && (qe.has(ai) || na([ai], 0), r || t.publish("pointout", ai)), ai = void 0;
		i && (Q = !0, br = n);
	}, ua = (e) => {
		let t = u.getBoundingClientRect();
		return i[0] = e.clientX - t.left, i[1] = e.clientY - t.top, [...i];
	}, da = () => {
		X.config({ isFixed: !0 }), He = !0, fn = !0, ea(), Ge >= 0 && (clearTimeout(Ge), Ge = -1), t.publish("lassoStart");
	}, fa = (e, n, { merge: r = !1, remove: i = !1 } = {}) => {
		X.config({ isFixed: Ae }), Pn = [...e];
		let a = Xi(n);
		sa(a, {
			merge: r,
			remove: i
		}), t.publish("lassoEnd", { coordinates: Pn }), v === xt && ea();
	}, pa = $r(u, {
		onStart: da,
		onDraw: Ji,
		onEnd: fa,
		enableInitiator: y,
		initiatorParentElement: x,
		longPressIndicatorParentElement: S,
		pointNorm: ([e, t]) => Ei(xi(e), Si(t)),
		minDelay: g,
		minDist: O === "brush" ? Math.max(Ct, _) : _,
		type: O
	}), ma = () => N === dt, ha = (e, t) => {
		switch (A[t]) {
			case Vt: return e.altKey;
			case Ht: return e.metaKey;
			case Ut: return e.ctrlKey;
			case Wt: return e.metaKey;
			case Gt: return e.shiftKey;
			default: return !1;
		}
	}, ga = (e) => document.elementsFromPoint(e.clientX, e.clientY).some((e) => e === u), _a = (e) => {
		Jr && e.buttons === 1 && (He = !0, Ue = performance.now(), We = ua(e), fn = ma() || ha(e, It), !fn && C && (pa.showLongPressIndicator(e.clientX, e.clientY, {
			time: w,
			extraTime: T,
			delay: E
		}), Ge = setTimeout(() => {
			Ge = -1, fn = !0;
		}, w)));
	}, va = (e) => {
		Jr && (He = !1, Ge >= 0 && (clearTimeout(Ge), Ge = -1), fn && (e.preventDefault(), fn = !1, pa.end({
			merge: ha(e, Rt),
			remove: ha(e, zt)
		})), C && pa.hideLongPressIndicator({ time: D }));
	}, ya = (e) => {
		if (!Jr || (e.preventDefault(), si(...ua(e), ...We) >= _)) return;
		let t = performance.now() - Ue;
		if (!y || t < Kn) {
			let t = Fi();
			t >= 0 ? (Ke.length > 0 && v === bt && ea(), sa([t], {
				merge: ha(e, Rt),
				remove: ha(e, zt)
			})) : gr || (gr = setTimeout(() => {
				gr = null, pa.showInitiator(e);
			}, Gn));
		}
	}, ba = (e) => {
		pa.hideInitiator(), gr && (clearTimeout(gr), gr = null), f && (e.preventDefault(), aa());
	}, xa = (e) => {
		if (Xr || (oi = ga(e), Xr = !0), !(Jr && (oi || He))) return;
		let t = si(...ua(e), ...We) >= _;
		oi && !fn && la(Fi()), fn ? (e.preventDefault(), pa.extend(e, !0)) : He && C && t && pa.hideLongPressIndicator({ time: D }), Ge >= 0 && t && (clearTimeout(Ge), Ge = -1), He && (Q = !0);
	}, Sa = () => {
		ai = void 0, oi = !1, Xr = !1, Jr && (+ai >= 0 && !qe.has(ai) && na([ai], 0), va(), Q = !0);
	}, Ca = () => {
		let e = Math.max(q.length, J.length);
		Kr = Math.max(2, Math.ceil(Math.sqrt(e)));
		let t = new Float32Array(Kr ** 2 * 4);
		for (let n = 0; n < e; n++) {
			t[n * 4] = q[n] || 0, t[n * 4 + 1] = Math.min(1, J[n] || 0);
			let e = Number((R[n] || R[0])[3]);
			t[n * 4 + 2] = Math.min(1, Number.isNaN(e) ? 1 : e);
			let r = Number((z[n] || z[0])[3]);
			t[n * 4 + 3] = Math.min(1, Number.isNaN(r) ? 1 : r);
		}
		return a.regl.texture({
			data: t,
			shape: [
				Kr,
				Kr,
				4
			],
			type: "float"
		});
	}, wa = (e = L, t = R, n = z) => {
		let r = e.length, i = t.length, a = n.length, o = [];
		if (r === i && i === a) for (let i = 0; i < r; i++) o.push(e[i], t[i], n[i], c);
		else for (let i = 0; i < r; i++) {
			let r = [
				e[i][0],
				e[i][1],
				e[i][2],
				1
			], a = d === vn ? t[0] : r, s = d === vn ? n[0] : r;
			o.push(e[i], a, s, c);
		}
		return o;
	}, Ta = () => {
		let e = wa(), t = e.length;
		Wr = Math.max(2, Math.ceil(Math.sqrt(t)));
		let n = new Float32Array(Wr ** 2 * 4);
		return e.forEach((e, t) => {
			n[t * 4] = e[0], n[t * 4 + 1] = e[1], n[t * 4 + 2] = e[2], n[t * 4 + 3] = e[3];
		}), a.regl.texture({
			data: n,
			shape: [
				Wr,
				Wr,
				4
			],
			type: "float"
		});
	}, Ea = (e, t) => {
		sr[0] = e / Jn, sr[5] = t;
	}, Da = () => {
		Jn = je / Me, or = G([], [
			1 / Jn,
			1,
			1
		]), sr = G([], [
			1 / Jn,
			1,
			1
		]), cr = G([], [
			ar,
			1,
			1
		]);
	}, Oa = (e) => {
		+e <= 0 || (ar = e);
	}, ka = (e, t) => (n) => {
		if (!n || n.length === 0) return;
		let r = [...e()], i = Ai(n) ? n : [n];
		if (i = i.map((e) => Pi(e, !0)), !ji(r, i)) {
			Ur && Ur.destroy();
			try {
				t(i), Ur = Ta();
			} catch {
				console.error("Invalid colors. Switching back to default colors."), t(r), Ur = Ta();
			}
		}
	}, Aa = ka(() => L, (e) => {
		L = e;
	}), ja = ka(() => R, (e) => {
		R = e;
	}), Ma = ka(() => z, (e) => {
		z = e;
	}), Na = () => {
		let e = Ei(-1, -1), t = Ei(1, 1), n = (e[0] + 1) / 2, r = (t[0] + 1) / 2, i = (e[1] + 1) / 2, a = (t[1] + 1) / 2;
		return [[gi + n * vi, gi + r * vi], [yi + i * bi, yi + a * bi]];
	}, Pa = () => {
		if (!(ui || di)) return;
		let [e, t] = Na();
		ui && ui.domain(e), di && di.domain(t);
	}, Fa = (e, t) => {
		Me = Math.max(1, e), u.height = Math.floor(Me * window.devicePixelRatio), di && (di.range([Me, 0]), t || Pa());
	}, Ia = (e) => {
		e === tt ? (Ee = e, u.style.height = "100%", window.requestAnimationFrame(() => {
			u && Fa(u.getBoundingClientRect().height);
		})) : !+e || +e <= 0 || (Ee = +e, Fa(Ee), u.style.height = `${Ee}px`);
	}, La = () => {
		hr = _e, _e === tt && (hr = Array.isArray(q) ? P(q) : q);
	}, Ra = (e) => {
		let t = Array.isArray(q) ? [...q] : q;
		fi(e, pi, { minLength: 1 }) ? q = [...e] : mi(+e) && (q = [+e]), t === q || M(t, q) || (Gr && Gr.destroy(), Sr = Qt / q[0], Gr = Ca(), La());
	}, za = (e) => {
		!+e || +e < 0 || (me = +e);
	}, Ba = (e) => {
		!+e || +e < 0 || (ve = +e);
	}, Va = (e, t) => {
		je = Math.max(1, e), u.width = Math.floor(je * window.devicePixelRatio), ui && (ui.range([0, je]), t || Pa());
	}, Ha = (e) => {
		e === tt ? (De = e, u.style.width = "100%", window.requestAnimationFrame(() => {
			u && Va(u.getBoundingClientRect().width);
		})) : !+e || +e <= 0 || (De = +e, Va(De), u.style.width = `${je}px`);
	}, Ua = (e) => {
		let t = Array.isArray(J) ? [...J] : J;
		fi(e, pi, { minLength: 1 }) ? J = [...e] : mi(+e) && (J = [+e]), t === J || M(t, J) || (Gr && Gr.destroy(), Gr = Ca());
	}, Wa = (e) => {
		switch (e) {
			case "valueZ": return Zr;
			case "valueW": return Qr;
			default: return null;
		}
	}, Ga = (e, t) => {
		switch (e) {
			case _t: return (e) => Math.round(e * (t.length - 1));
			default: return j;
		}
	}, Ka = (e) => {
		d = Qi(e, vn);
	}, qa = (e) => {
		ye = Qi(e, pn, { allowDensity: !0 });
	}, Ja = (e) => {
		Ce = Qi(e, rn);
	}, Ya = (e) => {
		if (e == null) we = null;
		else if (Array.isArray(e)) we = e;
		else return;
		if (Jr) {
			if (Zo(), Ye) {
				let e = [];
				if (Mr !== null) for (let t = 0; t < Mr.length; t++) Xe.has(Mr[t]) && e.push.apply(e, ra(Mr[t]));
				else {
					let t = Ki([...Xe]);
					for (let n of t) e.push.apply(e, ra(n));
				}
				kr.subdata(e);
			} else kr.subdata(Qo(lt));
		}
	}, Xa = (e) => {
		ie = Qi(e, Cn, {
			allowSegment: !0,
			allowInherit: !0
		});
	}, Za = (e) => {
		se = Qi(e, un, { allowSegment: !0 });
	}, $ = (e) => {
		de = Qi(e, cn, { allowSegment: !0 });
	}, Qa = () => o, $a = () => [u.width, u.height], eo = () => l, to = () => Ur, no = () => Wr, ro = () => .5 / Wr, io = () => window.devicePixelRatio, ao = () => kr, oo = () => Ar, so = () => Gr, co = () => Kr, lo = () => .5 / Kr, uo = () => 0, fo = () => Tr || Cr, po = () => Dr, mo = () => .5 / Dr, ho = () => sr, go = () => X.view, _o = () => cr, vo = () => U(r, sr, U(r, X.view, cr)), yo = () => window.devicePixelRatio, bo = () => Mi(Sr, X.scaling[0]) * window.devicePixelRatio, xo = () => X.scaling[0] > 1 ? Math.asinh(Mi(1, X.scaling[0])) / Math.asinh(1) * window.devicePixelRatio : Mi(Sr, X.scaling[0]) * window.devicePixelRatio, So = xo;
	Te === "linear" ? So = bo : Te === "constant" && (So = yo);
	let Co = () => Ye ? Xe.size : lt, wo = () => Ke.length, To = () => wo() > 0 ? xe : 1, Eo = () => wo() > 0 ? Se : 1, Do = () => +(d === "valueZ"), Oo = () => +(d === "valueW"), ko = () => +(ye === "valueZ"), Ao = () => +(ye === "valueW"), jo = () => +(ye === "density"), Mo = () => +(Ce === "valueZ"), No = () => +(Ce === "valueW"), Po = () => +s, Fo = () => d === "valueZ" ? Zr === _t ? L.length - 1 : 1 : Qr === _t ? L.length - 1 : 1, Io = () => ye === "valueZ" ? Zr === _t ? J.length - 1 : 1 : Qr === _t ? J.length - 1 : 1, Lo = () => Ce === "valueZ" ? Zr === _t ? q.length - 1 : 1 : Qr === _t ? q.length - 1 : 1, Ro = (e) => {
		if (ye !== "density") return 1;
		let t = So(), n = q[0] * t, r = 2 / (2 / X.view[0]) * (2 / (2 / X.view[5])), i = e.viewportHeight, a = e.viewportWidth, o = be * a * i / (Zt * n * n) * Ni(1, r);
		o *= Ie ? 1 : 1 / (.25 * Math.PI);
		let s = Mi(Qt, n) + .5;
		return o *= (n / s) ** 2, Ni(1, Mi(0, o));
	}, zo = a.regl({
		framebuffer: () => Er,
		vert: ii,
		frag: ri,
		attributes: { position: [
			-4,
			0,
			4,
			4,
			4,
			-4
		] },
		uniforms: {
			startStateTex: () => wr,
			endStateTex: () => Cr,
			t: (e, t) => t.t
		},
		count: 3
	}), Bo = (e, t, n, r = nt, i = To, o = Eo) => a.regl({
		frag: Ie ? ni : ei,
		vert: ti(r),
		blend: {
			enable: !Le,
			func: {
				srcRGB: "src alpha",
				srcAlpha: "one",
				dstRGB: "one minus src alpha",
				dstAlpha: "one minus src alpha"
			}
		},
		depth: { enable: !1 },
		attributes: { stateIndex: {
			buffer: n,
			size: 2
		} },
		uniforms: {
			antiAliasing: Qa,
			resolution: $a,
			modelViewProjection: vo,
			devicePixelRatio: io,
			pointScale: () => So(),
			encodingTex: so,
			encodingTexRes: co,
			encodingTexEps: lo,
			pointOpacityMax: i,
			pointOpacityScale: o,
			pointSizeExtra: e,
			globalState: r,
			colorTex: to,
			colorTexRes: no,
			colorTexEps: ro,
			stateTex: fo,
			stateTexRes: po,
			stateTexEps: mo,
			isColoredByZ: Do,
			isColoredByW: Oo,
			isOpacityByZ: ko,
			isOpacityByW: Ao,
			isOpacityByDensity: jo,
			isSizedByZ: Mo,
			isSizedByW: No,
			isPixelAligned: Po,
			colorMultiplicator: Fo,
			opacityMultiplicator: Io,
			opacityDensity: Ro,
			sizeMultiplicator: Lo,
			numColorStates: ot,
			drawingBufferWidth: (e) => e.drawingBufferWidth,
			drawingBufferHeight: (e) => e.drawingBufferHeight
		},
		count: t,
		primitive: "points"
	}), Vo = Bo(uo, Co, ao), Ho = Bo(uo, () => 1, () => jr, it, () => 1, () => 1), Uo = Bo(() => (me + ve * 2) * window.devicePixelRatio, wo, oo, rt, () => 1, () => 1), Wo = Bo(() => (me + ve) * window.devicePixelRatio, wo, oo, at, () => 1, () => 1), Go = Bo(() => me * window.devicePixelRatio, wo, oo, rt, () => 1, () => 1), Ko = () => {
		Uo(), Wo(), Go();
	}, qo = a.regl({
		frag: $e,
		vert: et,
		attributes: { position: [
			0,
			1,
			0,
			0,
			1,
			0,
			0,
			1,
			1,
			1,
			1,
			0
		] },
		uniforms: {
			modelViewProjection: vo,
			texture: eo
		},
		count: 6
	}), Jo = a.regl({
		vert: "\n      precision mediump float;\n      uniform mat4 modelViewProjection;\n      attribute vec2 position;\n      void main () {\n        gl_Position = modelViewProjection * vec4(position, 0, 1);\n      }",
		frag: "\n      precision mediump float;\n      uniform vec4 color;\n      void main () {\n        gl_FragColor = vec4(color.rgb, 0.2);\n      }",
		depth: { enable: !1 },
		blend: {
			enable: !0,
			func: {
				srcRGB: "src alpha",
				srcAlpha: "one",
				dstRGB: "one minus src alpha",
				dstAlpha: "one minus src alpha"
			}
		},
		attributes: { position: () => Pn },
		uniforms: {
			modelViewProjection: vo,
			color: () => m
		},
		elements: () => ge(Z.getPoints())
	}), Yo = () => {
		if (!(ai >= 0)) return;
		let [e, t] = ct[ai].slice(0, 2), r = [
			e,
			t,
			0,
			1
		];
		U(n, sr, U(n, X.view, cr)), K(r, r, n), pr.setPoints([
			-1,
			r[1],
			1,
			r[1]
		]), mr.setPoints([
			r[0],
			1,
			r[0],
			-1
		]), pr.draw(), mr.draw(), Bo(() => (me + ve * 2) * window.devicePixelRatio, () => 1, jr, rt)(), Bo(() => (me + ve) * window.devicePixelRatio, () => 1, jr, at)();
	}, Xo = (e) => {
		let t = new Float32Array(e * 2), n = 0;
		for (let r = 0; r < e; ++r) {
			let e = ra(r);
			t[n] = e[0], t[n + 1] = e[1], n += 2;
		}
		return t;
	}, Zo = () => {
		if (we === null) {
			Mr = null, Nr = null;
			return;
		}
		let e = /* @__PURE__ */ new Set(), t = [];
		for (let n = 0; n < we.length; n++) {
			let r = we[n];
			Number.isFinite(r) && r >= 0 && r < lt && !e.has(r) && (t.push(r), e.add(r));
		}
		for (let n = 0; n < lt; n++) e.has(n) || t.push(n);
		Mr = t, Nr = new Float32Array(t.length * 2);
		let n = 0;
		for (let e = 0; e < t.length; e++) {
			let r = ra(t[e]);
			Nr[n] = r[0], Nr[n + 1] = r[1], n += 2;
		}
	}, Qo = (e) => Nr === null ? Xo(e) : Nr, $o = (e, t = {}) => {
		let n = e.length;
		Dr = Math.max(2, Math.ceil(Math.sqrt(n))), Or = .5 / Dr;
		let r = new Float32Array(Dr ** 2 * 4), i = !0, o = !0, s = 0, c = 0, l = 0;
		for (let t = 0; t < n; ++t) s = t * 4, r[s] = e[t][0], r[s + 1] = e[t][1], c = e[t][2] || 0, l = e[t][3] || 0, r[s + 2] = c, r[s + 3] = l, i && (i = Number.isInteger(c)), o && (o = Number.isInteger(l));
		return Zr = t.z && yt.includes(t.z) ? t.z : i ? vt : _t, Qr = t.w && yt.includes(t.w) ? t.w : o ? vt : _t, a.regl.texture({
			data: r,
			shape: [
				Dr,
				Dr,
				4
			],
			type: "float"
		});
	}, es = (e, t = {}) => {
		if (!Cr) return !1;
		if (Rr) {
			let e = wr;
			wr = Tr, e.destroy();
		} else wr = Cr;
		return Tr = $o(e, t), Er = a.regl.framebuffer({
			color: Tr,
			depth: !1,
			stencil: !1
		}), Cr = void 0, !0;
	}, ts = () => !!(wr && Tr), ns = () => {
		wr && (wr.destroy(), wr = void 0), Tr && (Tr.destroy(), Tr = void 0);
	}, rs = (e, t = {}) => new Promise((n) => {
		Jr = !1;
		let r = t?.preventFilterReset && e.length === lt, i = lt;
		lt = e.length, Zt = lt, i > 0 && lt !== i && (we = null, Mr = null, Nr = null), Cr && Cr.destroy(), Cr = $o(e, {
			z: t.zDataType,
			w: t.wDataType
		}), r || (Zo(), kr({
			usage: "static",
			type: "float",
			data: Qo(lt)
		})), ur(t.spatialIndex || e, { useWorker: Fe }).then((t) => {
			qn = t, ct = e, Jr = !0;
		}).then(n);
	}), is = (e, t) => {
		Pr = X.target, Fr = e, Ir = X.distance[0], Lr = t;
	}, as = () => Pr !== void 0 && Fr !== void 0 && Ir !== void 0 && Lr !== void 0, os = () => {
		Pr = void 0, Fr = void 0, Ir = void 0, Lr = void 0;
	}, ss = (e) => {
		let t = ie === "inherit" ? d : ie;
		if (t === "segment") {
			let t = B.length - 1;
			return t < 1 ? [] : e.reduce((e, n, r) => {
				let i = 0, a = [];
				for (let e = 2; e < n.length; e += 2) {
					let t = Math.sqrt((n[e - 2] - n[e]) ** 2 + (n[e - 1] - n[e + 1]) ** 2);
					a.push(t), i += t;
				}
				e[r] = [0];
				let o = 0;
				for (let s = 0; s < n.length / 2 - 1; s++) o += a[s], e[r].push(Math.floor(o / i * t) * 4);
				return e;
			}, []);
		}
		if (t) {
			let e = $i(t), n = Ga(Wa(t), ie === "inherit" ? L : B);
			return dr.reduce((t, [r, i]) => (t[r] = n(i[e]) * 4, t), []);
		}
		return Array(dr.length).fill(0);
	}, cs = () => {
		let e = se === "inherit" ? ye : se;
		if (e === "segment") {
			let e = W.length - 1;
			return e < 1 ? [] : dr.reduce((t, [n, r, i]) => (t[n] = F(i, (t) => W[Math.floor(t / (i - 1) * e)]), t), []);
		}
		if (e) {
			let t = $i(e), n = se === "inherit" ? J : W, r = Ga(Wa(e), n);
			return dr.reduce((e, [i, a]) => (e[i] = n[r(a[t])], e), []);
		}
	}, ls = () => {
		let e = de === "inherit" ? Ce : de;
		if (e === "segment") {
			let e = le.length - 1;
			return e < 1 ? [] : dr.reduce((t, [n, r, i]) => (t[n] = F(i, (t) => le[Math.floor(t / (i - 1) * e)]), t), []);
		}
		if (e) {
			let t = $i(e), n = de === "inherit" ? q : le, r = Ga(Wa(e), n);
			return dr.reduce((e, [i, a]) => (e[i] = n[r(a[t])], e), []);
		}
	}, us = (e) => {
		dr = [];
		let t = 0;
		Object.keys(e).forEach((n, r) => {
			dr[n] = [
				r,
				e[n].reference,
				e[n].length / 2,
				t
			], t += e[n].length / 2;
		});
	}, ds = (e) => new Promise((t) => {
		lr.setPoints([]), e?.length > 0 ? (fr = !0, Yi(e, {
			maxIntPointsPerSegment: fe,
			tolerance: pe
		}).then((e) => {
			us(e);
			let n = Object.values(e);
			lr.setPoints(n.length === 1 ? n[0] : n, {
				colorIndices: ss(n),
				opacities: cs(),
				widths: ls()
			}), fr = !1, t();
		})) : t();
	}), fs = ({ preventEvent: e = !1 } = {}) => (Ye = !1, Xe.clear(), kr.subdata(Qo(lt)), new Promise((n) => {
		let r = () => {
			t.subscribe("draw", () => {
				e || t.publish("unfilter"), n();
			}, 1), Q = !0;
		};
		ne || ta(ct[0]) ? ds(Oi()).then(() => {
			e || t.publish("pointConnectionsDraw"), r();
		}) : r();
	})), ps = (e, { preventEvent: n = !1 } = {}) => {
		Ye = !0, Xe.clear();
		let r = Array.isArray(e) ? e : [e], i = [], a = [], o = [];
		for (let e of r) !Number.isFinite(e) || e < 0 || e >= lt || (i.push(e), Xe.add(e), qe.has(e) && o.push(e));
		let s;
		if (Mr !== null) {
			s = [];
			for (let e = 0; e < Mr.length; e++) Xe.has(Mr[e]) && s.push(Mr[e]);
		} else s = Ki([...i]);
		for (let e of s) a.push.apply(a, ra(e));
		return kr.subdata(a), sa(o, { preventEvent: n }), Xe.has(ai) || la(-1, { preventEvent: n }), new Promise((e) => {
			let r = () => {
				t.subscribe("draw", () => {
					n || t.publish("filter", { points: i }), e();
				}, 1), Q = !0;
			};
			ne || ta(ct[0]) ? ds(Oi()).then(() => {
				n || t.publish("pointConnectionsDraw"), sa(o, { preventEvent: n }), r();
			}) : r();
		});
	}, ms = () => ki(vr[0], vr[1], _r[0], _r[1]), hs = re(() => {
		Zt = ms().length;
	}, Pe), gs = (e) => {
		let [t, n] = Pr, [r, i] = Fr, a = 1 - e, o = t * a + r * e, s = n * a + i * e, c = Ir * a + Lr * e;
		X.lookAt([o, s], c);
	}, _s = () => ts(), vs = () => as(), ys = (e, t) => {
		zr || (zr = performance.now());
		let n = performance.now() - zr, r = Li(t(n / e), 0, 1);
		return _s() && zo({ t: r }), vs() && gs(r), n < e;
	}, bs = () => {
		Rr = !1, zr = null, Br = void 0, Vr = void 0, te = Hr, ns(), os(), t.publish("transitionEnd");
	}, xs = ({ duration: e = 500, easing: n = gt }) => {
		Rr && t.publish("transitionEnd"), Rr = !0, zr = null, Br = e, Vr = Ti(n) ? ht[n] || gt : n, Hr = te, te = !1, t.publish("transitionStart");
	}, Ss = (e, n = {}) => ze ? Promise.reject(/* @__PURE__ */ Error(rr)) : Re ? Promise.reject(/* @__PURE__ */ Error(ir)) : (Re = !0, Ri(e).then((e) => new Promise((r) => {
		if (ze) {
			r();
			return;
		}
		let i = !1;
		n.preventFilterReset && e?.length === lt || (Ye = !1, Xe.clear());
		let a = e && ta(e[0]) && (ne || n.showPointConnectionsOnce), { zDataType: o, wDataType: s } = n;
		new Promise((c) => {
			e ? (n.transition && (e.length === lt ? i = es(e, {
				z: o,
				w: s
			}) : console.warn("Cannot transition! The number of points between the previous and current draw call must be identical.")), rs(e, {
				zDataType: o,
				wDataType: s,
				preventFilterReset: n.preventFilterReset,
				spatialIndex: n.spatialIndex
			}).then(() => {
				n.hover !== void 0 && la(n.hover, { preventEvent: !0 }), n.select !== void 0 && sa(n.select, { preventEvent: !0 }), n.filter !== void 0 && ps(n.filter, { preventEvent: !0 }), a ? ds(e).then(() => {
					t.publish("pointConnectionsDraw"), Q = !0, br = n.showReticleOnce;
				}).then(() => r()) : c();
			})) : c();
		}).then(() => {
			n.transition && i ? (a ? Promise.all([new Promise((e) => {
				t.subscribe("transitionEnd", () => {
					Q = !0, br = n.showReticleOnce, e();
				}, 1);
			}), new Promise((e) => {
				t.subscribe("pointConnectionsDraw", e, 1);
			})]).then(() => r()) : t.subscribe("transitionEnd", () => {
				Q = !0, br = n.showReticleOnce, r();
			}, 1), xs({
				duration: n.transitionDuration,
				easing: n.transitionEasing
			})) : (a ? Promise.all([new Promise((e) => {
				t.subscribe("draw", e, 1);
			}), new Promise((e) => {
				t.subscribe("pointConnectionsDraw", e, 1);
			})]).then(() => r()) : t.subscribe("draw", () => r(), 1), Q = !0, br = n.showReticleOnce);
		});
	}).finally(() => {
		Re = !1;
	}))), Cs = (e) => ze ? Promise.reject(new rr()) : (Yr = !1, e.length === 0 ? new Promise((e) => {
		Ve.clear(), t.subscribe("draw", e, 1), Yr = !0, Q = !0;
	}) : new Promise((n) => {
		let r = [], i = /* @__PURE__ */ new Map(), a = [], o = [], s = -1, c = (e) => {
			o.push(e.lineWidth || Y);
			let t = Pi(e.lineColor || Oe, !0), n = `[${t.join(",")}]`;
			if (i.has(n)) {
				let { idx: e } = i.get(n);
				a.push(e);
			} else {
				let e = ++s;
				i.set(n, {
					idx: e,
					color: t
				}), a.push(e);
			}
		};
		for (let t of e) zi(t) ? (r.push([
			t.x1 ?? -ke,
			t.y,
			t.x2 ?? ke,
			t.y
		]), c(t)) : Bi(t) ? (r.push([
			t.x,
			t.y1 ?? -ke,
			t.x,
			t.y2 ?? ke
		]), c(t)) : Hi(t) ? (r.push([
			t.x1,
			t.y1,
			t.x2,
			t.y1,
			t.x2,
			t.y2,
			t.x1,
			t.y2,
			t.x1,
			t.y1
		]), c(t)) : Vi(t) ? (r.push([
			t.x,
			t.y,
			t.x + t.width,
			t.y,
			t.x + t.width,
			t.y + t.height,
			t.x,
			t.y + t.height,
			t.x,
			t.y
		]), c(t)) : Ui(t) && (r.push(t.vertices.flatMap(j)), c(t));
		Ve.setStyle({ color: Array.from(i.values()).sort((e, t) => e.idx > t.idx ? 1 : -1).map(({ color: e }) => e) }), Ve.setPoints(r.length === 1 ? r.flat() : r, {
			colorIndices: a,
			widths: o
		}), t.subscribe("draw", n, 1), Yr = !0, Q = !0;
	})), ws = (e) => (...n) => {
		let r = e(...n);
		return Q = !0, new Promise((e) => {
			t.subscribe("draw", () => e(r), 1);
		});
	}, Ts = (e) => {
		let t = Infinity, n = -Infinity, r = Infinity, i = -Infinity;
		for (let a of e) {
			let [e, o] = ct[a];
			t = Math.min(t, e), n = Math.max(n, e), r = Math.min(r, o), i = Math.max(i, o);
		}
		return {
			x: t,
			y: r,
			width: n - t,
			height: i - r
		};
	}, Es = (e, n = {}) => new Promise((r) => {
		let i = K([], [
			e.x + e.width / 2,
			e.y + e.height / 2,
			0,
			0
		], cr).slice(0, 2), a = 2 * Math.atan(1), o = Jn / ar, s = e.height * o >= e.width ? e.height / 2 / Math.tan(a / 2) : e.width / 2 / Math.tan(a / 2) / o;
		n.transition ? (X.config({ isFixed: !0 }), is(i, s), t.subscribe("transitionEnd", () => {
			r(), X.config({ isFixed: Ae });
		}, 1), xs({
			duration: n.transitionDuration,
			easing: n.transitionEasing
		})) : (X.lookAt(i, s), t.subscribe("draw", r, 1), Q = !0);
	}), Ds = (e, t = {}) => {
		if (!Jr) return Promise.reject(/* @__PURE__ */ Error(nr));
		let n = Ts(e), r = n.x + n.width / 2, i = n.y + n.height / 2, a = Di(), o = 1 + (t.padding || 0), s = Math.max(n.width, a) * o, c = Math.max(n.height, a) * o, l = r - s / 2, u = i - c / 2;
		return Es({
			x: l,
			y: u,
			width: s,
			height: c
		}, t);
	}, Os = (e, n, r = {}) => new Promise((i) => {
		r.transition ? (X.config({ isFixed: !0 }), is(e, n), t.subscribe("transitionEnd", () => {
			i(), X.config({ isFixed: Ae });
		}, 1), xs({
			duration: r.transitionDuration,
			easing: r.transitionEasing
		})) : (X.lookAt(e, n), t.subscribe("draw", i, 1), Q = !0);
	}), ks = (e = {}) => Os([0, 0], 1, e), As = (e) => {
		if (!Jr) throw Error(nr);
		let t = ct[e];
		if (!t) return;
		let r = [
			t[0],
			t[1],
			0,
			1
		];
		return U(n, or, U(n, X.view, cr)), K(r, r, n), [je * (r[0] + 1) / 2, Me * (.5 - r[1] / 2)];
	}, js = () => {
		lr.setStyle({
			color: wa(B, V, H),
			opacity: W === null ? null : W[0],
			width: le[0]
		});
	}, Ms = () => {
		let e = Math.round(Be) > .5 ? 0 : 255;
		pa.initiator.style.border = `1px dashed rgba(${e}, ${e}, ${e}, 0.33)`, pa.initiator.style.background = `rgba(${e}, ${e}, ${e}, 0.1)`;
	}, Ns = () => {
		let e = Math.round(Be) > .5 ? 0 : 255;
		pa.longPressIndicator.style.color = `rgb(${e}, ${e}, ${e})`, pa.longPressIndicator.dataset.color = `rgb(${e}, ${e}, ${e})`;
		let t = m.map((e) => Math.round(e * 255));
		pa.longPressIndicator.dataset.activeColor = `rgb(${t[0]}, ${t[1]}, ${t[2]})`;
	}, Ps = (e) => {
		e && (c = Pi(e, !0), Be = Ii(c), Ms(), Ns());
	}, Fs = (e) => {
		e ? Ti(e) ? _i(a.regl, e).then((e) => {
			l = e, Q = !0, t.publish("backgroundImageReady");
		}).catch(() => {
			console.error(`Count not create texture from ${e}`), l = null;
		}) : l = e._reglType === "texture2d" ? e : null : l = null;
	}, Is = (e) => {
		e > 0 && X.lookAt(X.target, e, X.rotation);
	}, Ls = (e) => {
		e !== null && X.lookAt(X.target, X.distance[0], e);
	}, Rs = (e) => {
		e && X.lookAt(e, X.distance[0], X.rotation);
	}, zs = (e) => {
		e && X.setView(e);
	}, Bs = (e) => {
		Ae = !!e, X.config({ isFixed: Ae });
	}, Vs = (e) => {
		if (!e) return;
		m = Pi(e, !0), Z.setStyle({ color: m });
		let t = m.map((e) => Math.round(e * 255));
		pa.longPressIndicator.dataset.activeColor = `rgb(${t[0]}, ${t[1]}, ${t[2]})`;
	}, Hs = (e) => {
		Number.isNaN(+e) || +e < 1 || (h = +e, Z.setStyle({ width: h }));
	}, Us = (e) => {
		+e && (g = +e, pa.set({ minDelay: g }));
	}, Ws = (e) => {
		+e && (_ = +e, pa.set({ minDist: _ }));
	}, Gs = (e) => {
		v = hi(St, v)(e);
	}, Ks = (e) => {
		y = !!e, pa.set({ enableInitiator: y });
	}, qs = (e) => {
		x = e, pa.set({ initiatorParentElement: x });
	}, Js = (e) => {
		S = e, pa.set({ longPressIndicatorParentElement: S });
	}, Ys = (e) => {
		C = !!e;
	}, Xs = (e) => {
		w = Number(e);
	}, Zs = (e) => {
		T = Number(e);
	}, Qs = (e) => {
		E = Number(e);
	}, $s = (e) => {
		D = Number(e);
	}, ec = (e) => {
		e === "brush" ? pa.set({
			type: e,
			minDist: Math.max(Ct, _)
		}) : pa.set({
			type: e,
			minDist: _
		}), O = pa.get("type");
	}, tc = (e) => {
		k = Number(e) || k, pa.set({ brushSize: k });
	}, nc = () => {
		A[Lt] ? X.config({
			isRotate: !0,
			mouseDownMoveModKey: A[Lt]
		}) : X.config({ isRotate: !1 });
	}, rc = (e) => {
		A = Object.entries(e).reduce((e, [t, n]) => (Kt.includes(n) && Bt.includes(t) && (e[t] = n), e), {}), nc();
	}, ic = (e) => {
		N = hi(pt, ut)(e), X.config({ defaultMouseDownMoveAction: N === ft ? "rotate" : "pan" });
	}, ac = (e) => {
		e !== null && (te = e);
	}, oc = (e) => {
		e && (I = Pi(e, !0), pr.setStyle({ color: I }), mr.setStyle({ color: I }));
	}, sc = (e) => {
		e && (ui = e, gi = e.domain()[0], vi = e ? e.domain()[1] - e.domain()[0] : 0, ui.range([0, je]), Pa());
	}, cc = (e) => {
		e && (di = e, yi = di.domain()[0], bi = di ? di.domain()[1] - di.domain()[0] : 0, di.range([Me, 0]), Pa());
	}, lc = (e) => {
		f = !!e;
	}, uc = (e) => {
		p = !!e;
	}, dc = (e) => {
		ne = !!e, ne ? Jr && ta(ct[0]) && ds(Oi()).then(() => {
			t.publish("pointConnectionsDraw"), Q = !0;
		}) : ds();
	}, fc = (e, t) => (n) => {
		e(n === "inherit" ? [...t()] : (Ai(n) ? n : [n]).map((e) => Pi(e, !0))), js();
	}, pc = fc((e) => {
		B = e;
	}, () => L), mc = fc((e) => {
		V = e;
	}, () => R), hc = fc((e) => {
		H = e;
	}, () => z), gc = (e) => {
		fi(e, pi, { minLength: 1 }) && (W = [...e]), mi(+e) && (W = [+e]), B = B.map((e) => (e[3] = Number.isNaN(+W[0]) ? e[3] : +W[0], e)), js();
	}, _c = (e) => {
		!Number.isNaN(+e) && +e && (ce = +e);
	}, vc = (e) => {
		fi(e, pi, { minLength: 1 }) && (le = [...e]), mi(+e) && (le = [+e]), js();
	}, yc = (e) => {
		!Number.isNaN(+e) && +e && (ue = Math.max(0, e));
	}, bc = (e) => {
		fe = Math.max(0, e);
	}, xc = (e) => {
		pe = Math.max(0, e);
	}, Sc = (e) => {
		_e = e, La();
	}, Cc = (e) => {
		switch (e) {
			case "linear":
				Te = e, So = bo;
				break;
			case "constant":
				Te = e, So = yo;
				break;
			default: Te = "asinh", So = xo;
		}
	}, wc = (e) => {
		be = +e;
	}, Tc = (e) => {
		xe = +e;
	}, Ec = (e) => {
		Se = +e;
	}, Dc = (e) => {
		Oe = Pi(e);
	}, Oc = (e) => {
		Y = +e;
	}, kc = (e) => {
		ke = +e;
	}, Ac = (e) => {
		a.gamma = e;
	}, jc = (e) => {
		o = Number(e) || .5;
	}, Mc = (e) => {
		s = !!e;
	}, Nc = (e) => {
		let [t] = Object.keys(Zi({ [e]: tr }));
		if (t === "aspectRatio") return ar;
		if (t === "background" || t === "backgroundColor") return c;
		if (t === "backgroundImage") return l;
		if (t === "camera") return X;
		if (t === "cameraTarget") return X.target;
		if (t === "cameraDistance") return X.distance[0];
		if (t === "cameraRotation") return X.rotation;
		if (t === "cameraView") return X.view;
		if (t === "cameraIsFixed") return Ae;
		if (t === "canvas") return u;
		if (t === "colorBy") return d;
		if (t === "sizeBy") return Ce;
		if (t === "pointOrder") return we === null ? null : [...we];
		if (t === "deselectOnDblClick") return f;
		if (t === "deselectOnEscape") return p;
		if (t === "height") return Ee;
		if (t === "lassoColor") return m;
		if (t === "lassoLineWidth") return h;
		if (t === "lassoMinDelay") return g;
		if (t === "lassoMinDist") return _;
		if (t === "lassoClearEvent") return v;
		if (t === "lassoInitiator") return y;
		if (t === "lassoInitiatorElement") return pa.initiator;
		if (t === "lassoInitiatorParentElement") return x;
		if (t === "lassoLongPressIndicatorParentElement") return S;
		if (t === "lassoOnLongPress") return C;
		if (t === "lassoType") return O;
		if (t === "lassoBrushSize") return k;
		if (t === "mouseMode") return N;
		if (t === "opacity") return J.length === 1 ? J[0] : J;
		if (t === "opacityBy") return ye;
		if (t === "opacityByDensityFill") return be;
		if (t === "opacityByDensityDebounceTime") return Pe;
		if (t === "opacityInactiveMax") return xe;
		if (t === "opacityInactiveScale") return Se;
		if (t === "points") return ct;
		if (t === "hoveredPoint") return ai;
		if (t === "selectedPoints") return [...Ke];
		if (t === "filteredPoints") return Ye ? Array.from(Xe) : Array.from({ length: ct.length }, (e, t) => t);
		if (t === "pointsInView") return ms();
		if (t === "pointColor") return L.length === 1 ? L[0] : L;
		if (t === "pointColorActive") return R.length === 1 ? R[0] : R;
		if (t === "pointColorHover") return z.length === 1 ? z[0] : z;
		if (t === "pointOutlineWidth") return ve;
		if (t === "pointSize") return q.length === 1 ? q[0] : q;
		if (t === "pointSizeSelected") return me;
		if (t === "pointSizeMouseDetection") return _e;
		if (t === "showPointConnections") return ne;
		if (t === "pointConnectionColor") return B.length === 1 ? B[0] : B;
		if (t === "pointConnectionColorActive") return V.length === 1 ? V[0] : V;
		if (t === "pointConnectionColorHover") return H.length === 1 ? H[0] : H;
		if (t === "pointConnectionColorBy") return ie;
		if (t === "pointConnectionOpacity") return W.length === 1 ? W[0] : W;
		if (t === "pointConnectionOpacityBy") return se;
		if (t === "pointConnectionOpacityActive") return ce;
		if (t === "pointConnectionSize") return le.length === 1 ? le[0] : le;
		if (t === "pointConnectionSizeActive") return ue;
		if (t === "pointConnectionSizeBy") return de;
		if (t === "pointConnectionMaxIntPointsPerSegment") return fe;
		if (t === "pointConnectionTolerance") return pe;
		if (t === "pointScaleMode") return Te;
		if (t === "reticleColor") return I;
		if (t === "regl") return a.regl;
		if (t === "showReticle") return te;
		if (t === "version") return Qe;
		if (t === "width") return De;
		if (t === "xScale") return ui;
		if (t === "yScale") return di;
		if (t === "performanceMode") return Ne;
		if (t === "renderPointsAsSquares") return Ie;
		if (t === "disableAlphaBlending") return Le;
		if (t === "gamma") return a.gamma;
		if (t === "renderer") return a;
		if (t === "isDestroyed") return ze;
		if (t === "isDrawing") return Re;
		if (t === "isPointsDrawn") return Jr;
		if (t === "isPointsFiltered") return Ye;
		if (t === "isAnnotationsDrawn") return Yr;
		if (t === "zDataType") return Zr;
		if (t === "wDataType") return Qr;
		if (t === "spatialIndex") return qn?.data;
		if (t === "annotationLineColor") return Oe;
		if (t === "annotationLineWidth") return Y;
		if (t === "annotationHVLineLimit") return ke;
		if (t === "antiAliasing") return o;
		if (t === "pixelAligned") return s;
		if (t === "actionKeyMap") return { ...A };
	}, Pc = (e = {}) => ze ? Promise.reject(/* @__PURE__ */ Error(rr)) : (Zi(e), (e.backgroundColor !== void 0 || e.background !== void 0) && Ps(e.backgroundColor || e.background), e.backgroundImage !== void 0 && Fs(e.backgroundImage), e.cameraTarget !== void 0 && Rs(e.cameraTarget), e.cameraDistance !== void 0 && Is(e.cameraDistance), e.cameraRotation !== void 0 && Ls(e.cameraRotation), e.cameraView !== void 0 && zs(e.cameraView), e.cameraIsFixed !== void 0 && Bs(e.cameraIsFixed), e.colorBy !== void 0 && Ka(e.colorBy), e.pointColor !== void 0 && Aa(e.pointColor), e.pointColorActive !== void 0 && ja(e.pointColorActive), e.pointColorHover !== void 0 && Ma(e.pointColorHover), e.pointSize !== void 0 && Ra(e.pointSize), e.pointSizeSelected !== void 0 && za(e.pointSizeSelected), e.pointSizeMouseDetection !== void 0 && Sc(e.pointSizeMouseDetection), e.sizeBy !== void 0 && Ja(e.sizeBy), e.pointOrder !== void 0 && Ya(e.pointOrder), e.opacity !== void 0 && Ua(e.opacity), e.showPointConnections !== void 0 && dc(e.showPointConnections), e.pointConnectionColor !== void 0 && pc(e.pointConnectionColor), e.pointConnectionColorActive !== void 0 && mc(e.pointConnectionColorActive), e.pointConnectionColorHover !== void 0 && hc(e.pointConnectionColorHover), e.pointConnectionColorBy !== void 0 && Xa(e.pointConnectionColorBy), e.pointConnectionOpacityBy !== void 0 && Za(e.pointConnectionOpacityBy), e.pointConnectionOpacity !== void 0 && gc(e.pointConnectionOpacity), e.pointConnectionOpacityActive !== void 0 && _c(e.pointConnectionOpacityActive), e.pointConnectionSize !== void 0 && vc(e.pointConnectionSize), e.pointConnectionSizeActive !== void 0 && yc(e.pointConnectionSizeActive), e.pointConnectionSizeBy !== void 0 && $(e.pointConnectionSizeBy), e.pointConnectionMaxIntPointsPerSegment !== void 0 && bc(e.pointConnectionMaxIntPointsPerSegment), e.pointConnectionTolerance !== void 0 && xc(e.pointConnectionTolerance), e.pointScaleMode !== void 0 && Cc(e.pointScaleMode), e.opacityBy !== void 0 && qa(e.opacityBy), e.lassoColor !== void 0 && Vs(e.lassoColor), e.lassoLineWidth !== void 0 && Hs(e.lassoLineWidth), e.lassoMinDelay !== void 0 && Us(e.lassoMinDelay), e.lassoMinDist !== void 0 && Ws(e.lassoMinDist), e.lassoClearEvent !== void 0 && Gs(e.lassoClearEvent), e.lassoInitiator !== void 0 && Ks(e.lassoInitiator), e.lassoInitiatorParentElement !== void 0 && qs(e.lassoInitiatorParentElement), e.lassoLongPressIndicatorParentElement !== void 0 && Js(e.lassoLongPressIndicatorParentElement), e.lassoOnLongPress !== void 0 && Ys(e.lassoOnLongPress), e.lassoLongPressTime !== void 0 && Xs(e.lassoLongPressTime), e.lassoLongPressAfterEffectTime !== void 0 && Zs(e.lassoLongPressAfterEffectTime), e.lassoLongPressEffectDelay !== void 0 && Qs(e.lassoLongPressEffectDelay), e.lassoLongPressRevertEffectTime !== void 0 && $s(e.lassoLongPressRevertEffectTime), e.lassoType !== void 0 && ec(e.lassoType), e.lassoBrushSize !== void 0 && tc(e.lassoBrushSize), e.actionKeyMap !== void 0 && rc(e.actionKeyMap), e.mouseMode !== void 0 && ic(e.mouseMode), e.showReticle !== void 0 && ac(e.showReticle), e.reticleColor !== void 0 && oc(e.reticleColor), e.pointOutlineWidth !== void 0 && Ba(e.pointOutlineWidth), e.height !== void 0 && Ia(e.height), e.width !== void 0 && Ha(e.width), e.aspectRatio !== void 0 && Oa(e.aspectRatio), e.xScale !== void 0 && sc(e.xScale), e.yScale !== void 0 && cc(e.yScale), e.deselectOnDblClick !== void 0 && lc(e.deselectOnDblClick), e.deselectOnEscape !== void 0 && uc(e.deselectOnEscape), e.opacityByDensityFill !== void 0 && wc(e.opacityByDensityFill), e.opacityInactiveMax !== void 0 && Tc(e.opacityInactiveMax), e.opacityInactiveScale !== void 0 && Ec(e.opacityInactiveScale), e.gamma !== void 0 && Ac(e.gamma), e.annotationLineColor !== void 0 && Dc(e.annotationLineColor), e.annotationLineWidth !== void 0 && Oc(e.annotationLineWidth), e.annotationHVLineLimit !== void 0 && kc(e.annotationHVLineLimit), e.antiAliasing !== void 0 && jc(e.antiAliasing), e.pixelAligned !== void 0 && Mc(e.pixelAligned), new Promise((e) => {
		window.requestAnimationFrame(() => {
			!ze && u && (Da(), X.refresh(), a.refresh(), Zc(), e());
		});
	})), Fc = (e, { preventEvent: t = !1 } = {}) => {
		zs(e), Q = !0, yr = t;
	}, Ic = () => {
		X || (X = he(u, {
			isFixed: Ae,
			isPanInverted: [!1, !0],
			defaultMouseDownMoveAction: N === ft ? "rotate" : "pan"
		})), e.cameraView ? X.setView(ae(e.cameraView)) : e.cameraTarget || e.cameraDistance || e.cameraRotation ? X.lookAt([...e.cameraTarget || An], e.cameraDistance || jn, e.cameraRotation || Mn) : X.setView(ae(Nn)), _r = Ei(1, 1), vr = Ei(-1, -1);
	}, Lc = ({ preventEvent: e = !1 } = {}) => {
		Ic(), Pa(), e || t.publish("view", {
			view: X.view,
			camera: X,
			xScale: ui,
			yScale: di
		});
	}, Rc = ({ key: e }) => {
		e === "Escape" && p && aa();
	}, zc = () => {
		oi = !0, Xr = !0;
	}, Bc = () => {
		la(), oi = !1, Xr = !0, Q = !0;
	}, Vc = () => {
		Q = !0;
	}, Hc = () => {
		rs([]), lr.clear();
	}, Uc = () => {
		lr.clear();
	}, Wc = () => {
		Cs([]);
	}, Gc = () => {
		Hc(), Wc();
	}, Kc = () => {
		let e = De === tt, t = Ee === tt;
		if (e || t) {
			let { width: n, height: r } = u.getBoundingClientRect();
			e && Va(n, !0), t && Fa(r, !0), Da(), Pa(), Q = !0;
		}
		X.refresh();
	}, qc = async (e) => {
		u.style.userSelect = "none";
		let n = window.devicePixelRatio, r = q, i = De, c = Ee, l = a.canvas.width / n, d = a.canvas.height / n, f = s, p = o, m = e?.scale || 1, h = Array.isArray(q) ? q.map((e) => e * m) : q * m, g = je * m, _ = Me * m;
		Ra(h), Ha(g), Ia(_), Mc(e?.pixelAligned || s), jc(e?.antiAliasing || o), a.resize(De, Ee), a.refresh(), await new Promise((e) => {
			t.subscribe("draw", e, 1), Zc();
		});
		let v = u.getContext("2d").getImageData(0, 0, u.width, u.height);
		return a.resize(l, d), a.refresh(), Ra(r), Ha(i), Ia(c), Mc(f), jc(p), await new Promise((e) => {
			t.subscribe("draw", e, 1), Zc();
		}), u.style.userSelect = null, v;
	}, Jc = (e) => e === void 0 ? u.getContext("2d").getImageData(0, 0, u.width, u.height) : qc(e), Yc = () => {
		Da(), Ic(), Pa(), Z = Ze(a.regl, {
			color: m,
			width: h,
			is2d: !0
		}), lr = Ze(a.regl, {
			color: wa(B, V, H),
			opacity: W === null ? null : W[0],
			width: le[0],
			is2d: !0
		}), pr = Ze(a.regl, {
			color: I,
			width: 1,
			is2d: !0
		}), mr = Ze(a.regl, {
			color: I,
			width: 1,
			is2d: !0
		}), Ve = Ze(a.regl, {
			color: Oe,
			width: Y,
			is2d: !0
		}), La(), u.addEventListener("wheel", Vc), kr = a.regl.buffer(), Ar = a.regl.buffer(), jr = a.regl.buffer({
			usage: "dynamic",
			type: "float",
			length: st * 2
		}), Ur = Ta(), Gr = Ca();
		let e = Pc({
			backgroundImage: l,
			width: De,
			height: Ee,
			actionKeyMap: A
		});
		Ms(), Ns(), window.addEventListener("keyup", Rc, !1), window.addEventListener("blur", Sa, !1), window.addEventListener("mouseup", va, !1), window.addEventListener("mousemove", xa, !1), u.addEventListener("mousedown", _a, !1), u.addEventListener("mouseenter", zc, !1), u.addEventListener("mouseleave", Bc, !1), u.addEventListener("click", ya, !1), u.addEventListener("dblclick", ba, !1), "ResizeObserver" in window ? (xr = new ResizeObserver(Kc), xr.observe(u)) : (window.addEventListener("resize", Kc), window.addEventListener("orientationchange", Kc)), e.then(() => {
			t.publish("init");
		});
	}, Xc = a.onFrame(() => {
		if (qr = X.tick(), !Jr && !Yr || !Q && !Rr) return;
		Rr && !ys(Br, Vr) && bs(), qr && (_r = Ei(1, 1), vr = Ei(-1, -1), ye === "density" && hs()), a.render(() => {
			let e = u.width / a.canvas.width, t = u.height / a.canvas.height;
			Ea(e, t), l?._reglType && qo(), Pn.length > 2 && Jo(), Rr || lr.draw({
				projection: ho(),
				model: _o(),
				view: go()
			});
			let n = Co();
			Jr && n > 0 && Vo(), !He && (te || br) && Yo(), ai >= 0 && Ho(), Ke.length > 0 && Ko(), Ve.draw({
				projection: ho(),
				model: _o(),
				view: go()
			}), Z.draw({
				projection: ho(),
				model: _o(),
				view: go()
			});
		}, u);
		let e = {
			view: X.view,
			isViewChanged: qr,
			camera: X,
			xScale: ui,
			yScale: di
		};
		qr && (Pa(), yr ? yr = !1 : t.publish("view", e)), Q = !1, br = !1, t.publish("drawing", e, { async: !1 }), t.publish("draw", e);
	}), Zc = () => {
		Q = !0;
	};
	return Yc(), {
		get isSupported() {
			return a.isSupported;
		},
		clear: ws(Gc),
		clearPoints: ws(Hc),
		clearPointConnections: ws(Uc),
		clearAnnotations: ws(Wc),
		createTextureFromUrl: (e, t = Yn) => _i(a.regl, e, t),
		deselect: aa,
		destroy: () => {
			Jr = !1, Yr = !1, ze = !0, Xc(), window.removeEventListener("keyup", Rc, !1), window.removeEventListener("blur", Sa, !1), window.removeEventListener("mouseup", va, !1), window.removeEventListener("mousemove", xa, !1), u.removeEventListener("mousedown", _a, !1), u.removeEventListener("mouseenter", zc, !1), u.removeEventListener("mouseleave", Bc, !1), u.removeEventListener("click", ya, !1), u.removeEventListener("dblclick", ba, !1), u.removeEventListener("wheel", Vc, !1), xr ? xr.disconnect() : (window.removeEventListener("resize", Kc), window.removeEventListener("orientationchange", Kc)), u = void 0, X.dispose(), X = void 0, Z.destroy(), pa.destroy(), lr.destroy(), pr.destroy(), mr.destroy(), Ur && Ur.destroy(), Gr && Gr.destroy(), e.renderer || a.isDestroyed || a.destroy(), t.publish("destroy"), t.clear();
		},
		draw: Ss,
		drawAnnotations: Cs,
		filter: ps,
		get: Nc,
		getScreenPosition: As,
		hover: la,
		lassoSelect: ca,
		redraw: Zc,
		refresh: a.refresh,
		reset: ws(Lc),
		select: sa,
		set: Pc,
		export: Jc,
		subscribe: t.subscribe,
		unfilter: fs,
		unsubscribe: t.unsubscribe,
		view: Fc,
		zoomToLocation: Os,
		zoomToArea: Es,
		zoomToPoints: Ds,
		zoomToOrigin: ks
	};
}, ta = (e, t) => Ri(e).then((e) => ur(e, { useWorker: t })).then((e) => e.data), na = "#1f2328", ra = "#c2255c", ia = "rgba(194, 37, 92, 0.08)", aa = "#d6336b", oa = "rgba(255, 255, 255, 0.9)", sa = "#ffffff", ca = "\"Source Sans Pro\", \"Source Sans 3\", sans-serif", la = (e, t) => `${e} ${t}px ${ca}`, ua = 1500, da = .04, fa = [
	0,
	2.5,
	6
];
// src/contract.js
function pa(e, t) {
	return {
		x: new Float32Array(e, 0, t),
		y: new Float32Array(e, 4 * t, t)
	};
}
var ma = (e, t) => e[t >> 3] >> (t & 7) & 1, ha = (e, t, n = "") => Object.assign(document.createElement(e), {
	className: t,
	textContent: n
}), ga = class {
	constructor(e, t) {
		this.element = e, this.changed = t, this.hidden = /* @__PURE__ */ new Set();
	}
	show(e, t) {
		let n = JSON.stringify(e);
		if (n === this.shown) return;
		this.shown = n;
		let r = new Set(e.items.map((e) => e.code));
		this.hidden = new Set([...this.hidden].filter((e) => r.has(e))), this.element.replaceChildren(ha("div", "legend-title", e.title)), e.scale ? this.element.append(this.scale(e.scale)) : e.items.length && this.element.append(ha("div", "legend-hint", "Click to hide or show"));
		for (let n of e.items) this.element.append(this.entry(n, t[n.code][0]));
	}
	entry(e, t) {
		let n = ha("button", "legend-item");
		n.type = "button", n.setAttribute("aria-pressed", String(!this.hidden.has(e.code)));
		let r = ha("span", "swatch");
		r.style.background = t;
		let i = ha("span", "count", e.count.toLocaleString("en"));
		return n.append(r, ha("span", "name", e.name), i), n.addEventListener("click", () => {
			this.hidden.has(e.code) ? this.hidden.delete(e.code) : this.hidden.add(e.code), n.setAttribute("aria-pressed", String(!this.hidden.has(e.code))), this.changed();
		}), n;
	}
	scale({ stops: e, min: t, max: n }) {
		let r = ha("div", "scale-bar");
		r.style.background = `linear-gradient(to top, ${e.join(", ")})`;
		let i = ha("div", "scale-ends");
		i.append(ha("span", "", n), ha("span", "", t));
		let a = ha("div", "scale");
		return a.append(r, i), a;
	}
};
// src/canvas2d.js
function _a(e) {
	let { width: t, height: n } = e.getBoundingClientRect(), r = window.devicePixelRatio || 1;
	e.width !== Math.round(t * r) && (e.width = Math.round(t * r)), e.height !== Math.round(n * r) && (e.height = Math.round(n * r));
	let i = e.getContext("2d");
	return i.setTransform(r, 0, 0, r, 0, 0), i.clearRect(0, 0, t, n), i;
}
function va(e, t, n, r, i) {
	e.lineWidth = 4, e.strokeStyle = oa, e.strokeText(t, n, r), e.fillStyle = i, e.fillText(t, n, r);
}
// src/overlay.js
function ya(e, t, n, r) {
	let i = _a(e), a = t.query ? [xa(i, t.query, n)] : [];
	ba(i, t.labels, n, r, a);
}
function ba(e, t, n, r, i) {
	let { clientWidth: a, clientHeight: o } = e.canvas, s = fa.filter((e) => r >= e).length - 1, c = t.filter((e) => e.level <= s).sort((e, t) => t.level - e.level || t.size - e.size);
	e.textAlign = "center", e.textBaseline = "middle";
	for (let t of c) {
		let [r, c] = n(t.x, t.y);
		if (r < 0 || c < 0 || r > a || c > o) continue;
		e.font = t.level < s ? la(600, 12) : la(700, 14);
		let l = e.measureText(t.text).width + 8, u = [
			r - l / 2,
			c - 10,
			r + l / 2,
			c + 10
		];
		i.some((e) => u[0] < e[2] && u[2] > e[0] && u[1] < e[3] && u[3] > e[1]) || (i.push(u), va(e, t.text, r, c, na));
	}
}
function xa(e, t, n) {
	let [r, i] = n(t.x, t.y);
	e.strokeStyle = ra;
	for (let [a, o] of t.neighbours) {
		let [t, s] = n(a, o);
		e.beginPath(), e.moveTo(r, i), e.lineTo(t, s), e.lineWidth = 1.25, e.stroke(), e.beginPath(), e.arc(t, s, 6, 0, 2 * Math.PI), e.lineWidth = 2, e.stroke();
	}
	Sa(e, r, i, 11), e.font = la(600, 13), e.textBaseline = "middle";
	let a = `query: ${t.text.length > 60 ? `${t.text.slice(0, 59)}…` : t.text}`, o = e.measureText(a).width, s = r + 14 + o > e.canvas.clientWidth && r - 14 - o >= 0;
	e.textAlign = s ? "right" : "left";
	let c = s ? r - 14 : r + 14;
	va(e, a, c, i, ra);
	let [l, u] = [i - 10, i + 10];
	return s ? [
		c - o,
		l,
		c,
		u
	] : [
		c,
		l,
		c + o,
		u
	];
}
function Sa(e, t, n, r) {
	e.beginPath();
	for (let i = 0; i < 10; i += 1) {
		let a = i % 2 ? r * .45 : r, o = -Math.PI / 2 + i * Math.PI / 5;
		e.lineTo(t + a * Math.cos(o), n + a * Math.sin(o));
	}
	e.closePath(), e.fillStyle = ra, e.strokeStyle = "white", e.lineWidth = 1.5, e.fill(), e.stroke();
}
// src/pointer.js
function Ca(e, t, n) {
	let r = t / (t / n * 2);
	return [
		e[0] * r,
		e[4] * r,
		t / 2 + e[12] * r,
		-e[1] * n / 2,
		-e[5] * n / 2,
		n / 2 - e[13] * n / 2
	];
}
var wa = ([e, t, n, r, i, a], o, s) => [e * o + t * s + n, r * o + i * s + a];
function Ta(e, t, n, r, i, a, o) {
	let [s, c, l, u, d, f] = r, p = -1, m = o * o;
	for (let r = 0; r < e.length; r += 1) {
		let h = s * e[r] + c * t[r] + l - i;
		if (h > o || h < -o) continue;
		let g = u * e[r] + d * t[r] + f - a, _ = h * h + g * g;
		_ <= m && n(r) && (m = _, p = r);
	}
	return p;
}
function Ea(e, t, n, r, i) {
	let [a, o, s, c, l, u] = r, d = i.map((e) => e[0]), f = i.map((e) => e[1]), [p, m, h, g] = [
		Math.min(...d),
		Math.max(...d),
		Math.min(...f),
		Math.max(...f)
	], _ = [];
	for (let r = 0; r < e.length; r += 1) {
		let d = a * e[r] + o * t[r] + s;
		if (d < p || d > m) continue;
		let f = c * e[r] + l * t[r] + u;
		f < h || f > g || !Da(i, d, f) || !n(r) || _.push(r);
	}
	return _;
}
function Da(e, t, n) {
	let r = !1;
	for (let i = 0, a = e.length - 1; i < e.length; a = i, i += 1) {
		let [o, s] = e[i], [c, l] = e[a];
		s > n != l > n && t < (c - o) * (n - s) / (l - s) + o && (r = !r);
	}
	return r;
}
var Oa = class {
	constructor(e, t) {
		this.canvas = e, this.done = t, this.mode = "panZoom", this.path = null, this.held = null, this.ring = null, e.addEventListener("pointerdown", (t) => {
			t.button === 0 && (e.setPointerCapture(t.pointerId), this.path = [this.at(t)], this.held = null, this.paint());
		}), e.addEventListener("pointermove", (e) => {
			if (!this.path) return;
			let t = this.at(e);
			this.mode === "rectangle" ? this.path = [this.path[0], t] : this.path.push(t), this.paint();
		}), e.addEventListener("pointerup", () => {
			if (!this.path) return;
			let e = this.path;
			this.path = null, this.paint(), t(this.mode === "rectangle" && e.length > 1 ? ka(e[0], e[1]) : e);
		});
	}
	setMode(e) {
		this.mode = e, this.canvas.style.pointerEvents = e === "panZoom" ? "none" : "auto";
	}
	at(e) {
		let t = this.canvas.getBoundingClientRect();
		return [e.clientX - t.left, e.clientY - t.top];
	}
	hold(e) {
		this.held = e, this.paint();
	}
	showRing(e) {
		this.ring = e, this.paint();
	}
	paint() {
		let e = _a(this.canvas);
		if (this.ring) {
			let [t, n, r] = this.ring;
			e.beginPath(), e.arc(t, n, r, 0, 2 * Math.PI), e.lineWidth = 2, e.strokeStyle = na, e.stroke();
		}
		let t = this.path && this.path.length > 1 ? this.path : null, n = t && this.mode === "rectangle" ? ka(t[0], t[1]) : t ?? this.held;
		n && (e.beginPath(), n.forEach(([t, n], r) => r ? e.lineTo(t, n) : e.moveTo(t, n)), e.closePath(), e.fillStyle = ia, e.fill(), e.lineWidth = 1.5, e.strokeStyle = ra, e.stroke());
	}
}, ka = ([e, t], [n, r]) => [
	[e, t],
	[n, t],
	[n, r],
	[e, r]
], Aa = `
.explorer-map { font: ${la(400, 14)}; color: ${na}; }
.toolbar { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; margin-bottom: 6px; }
.toolbar button { font: inherit; padding: 3px 10px; border: 1px solid #adb5bd; border-radius: 6px;
  background: white; color: ${na}; cursor: pointer; }
.toolbar button[aria-pressed="true"] { background: ${na}; color: white; border-color: ${na}; }
.toolbar button:focus-visible, .legend-item:focus-visible { outline: 2px solid ${ra}; outline-offset: 1px; }
.status { margin-left: auto; color: #495057; }
.body { display: flex; flex-wrap: wrap; gap: 10px; } /* the legend goes below a narrow map */
.stage { position: relative; flex: 1 1 420px; min-width: 0; border: 1px solid #dee2e6; border-radius: 6px;
  overflow: hidden; }
.stage canvas { position: absolute; inset: 0; width: 100%; height: 100%; }
.stage canvas.overlay, .stage canvas.sketch { pointer-events: none; }
.stage canvas.sketch { cursor: crosshair; }
.tooltip { position: absolute; box-sizing: border-box; width: max-content; max-width: 320px;
  padding: 6px 8px; background: rgba(255,255,255,0.96); border: 1px solid #868e96; border-radius: 4px;
  pointer-events: none; white-space: pre-wrap; font-size: 13px; box-shadow: 0 1px 4px rgba(0,0,0,0.15); }
.tooltip img { display: block; width: 96px; height: 96px; object-fit: contain;
  object-position: left; margin-bottom: 4px; } /* a fixed box: the tooltip is placed before the picture decodes */
.legend { flex: 0 0 190px; max-height: 100%; overflow-y: auto; }
.legend-title { font-weight: 700; margin-bottom: 2px; }
.legend-hint { color: #495057; font-size: 12px; margin-bottom: 4px; }
.legend-item { display: flex; align-items: center; gap: 6px; width: 100%; padding: 2px 4px; font: inherit;
  color: inherit; background: none; border: 0; border-radius: 4px; cursor: pointer; text-align: left; }
.legend-item:hover { background: #f1f3f5; }
.legend-item[aria-pressed="false"] { color: #6c757d; text-decoration: line-through; }
.legend-item[aria-pressed="false"] .swatch { opacity: 0.25; }
.swatch { flex: 0 0 12px; height: 12px; border-radius: 50%; }
.name { flex: 1 1 auto; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.count { color: #495057; font-variant-numeric: tabular-nums; }
.scale { display: flex; gap: 6px; height: 180px; margin: 6px 0; }
.scale-bar { width: 14px; border-radius: 3px; }
.scale-ends { display: flex; flex-direction: column; justify-content: space-between; }
`, ja = ta([], !1), Ma = /* @__PURE__ */ new Map(), Na = () => {
	let e = globalThis.__explorerMapRenderer;
	return e && !e.isDestroyed ? e : globalThis.__explorerMapRenderer = qi();
}, Pa = (e, t) => [
	1,
	3,
	5
].map((t) => parseInt(e.slice(t, t + 2), 16) / 255).concat(t), Fa = `<style>${Aa}</style>
  <div class="toolbar" role="toolbar" aria-label="Map tools">
    <button type="button" data-mode="panZoom" aria-pressed="true" title="Drag to pan, scroll to zoom, click a point to select it">Pan &amp; zoom</button>
    <button type="button" data-mode="rectangle" aria-pressed="false" title="Drag a box to select the points in it">Box</button>
    <button type="button" data-mode="freeform" aria-pressed="false" title="Draw around points to select them">Lasso</button>
    <button type="button" data-action="reset" title="Show every point">Reset view</button>
    <button type="button" data-action="clear" title="Or double-click the map, or press Escape">Clear selection</button>
    <span class="status" aria-live="polite"></span>
  </div>
  <div class="body">
    <div class="stage">
      <canvas class="points" role="img"></canvas>
      <canvas class="overlay" aria-hidden="true"></canvas>
      <canvas class="sketch" aria-hidden="true"></canvas>
      <div class="tooltip" role="tooltip" hidden></div>
    </div>
    <div class="legend"></div>
  </div>`, Ia = class {
	constructor(e, t) {
		this.host = t, this.columns = t.columns, this.root = document.createElement("div"), this.root.className = "explorer-map", this.root.innerHTML = Fa, e.appendChild(this.root), this.stage = this.root.querySelector(".stage"), this.canvas = this.root.querySelector("canvas.points"), this.overlay = this.root.querySelector("canvas.overlay"), this.tooltip = this.root.querySelector(".tooltip"), this.status = this.root.querySelector(".status"), this.legend = new ga(this.root.querySelector(".legend"), () => this.applyFilter()), this.sketch = new Oa(this.root.querySelector("canvas.sketch"), (e) => this.sketched(e)), this.selected = [], this.hovered = -1, this.hoverTexts = /* @__PURE__ */ new Map(), this.draws = 0, this.lastDraw = {
			started: 0,
			ended: 0
		}, this.wireToolbar();
	}
	createPlot() {
		let { width: e, height: t } = this.stage.getBoundingClientRect();
		this.plot = ea({
			renderer: Na(),
			canvas: this.canvas,
			width: Math.max(1, Math.floor(e)),
			height: Math.max(1, Math.floor(t)),
			backgroundColor: Pa(sa, 1),
			pointColorActive: Pa(aa, 1),
			deselectOnDblClick: !0,
			deselectOnEscape: !0,
			pointScaleMode: "asinh"
		}), this.plot.subscribe("deselect", () => this.selectionMade([])), this.plot.subscribe("view", ({ view: e }) => {
			this.paintOverlay(), this.shareView(e);
		}), this.stage.addEventListener("mousemove", (e) => {
			this.pointerAt = e.buttons === 0 && !this.sketch.path ? this.sketch.at(e) : null, this.hoverFrame || (this.hoverFrame = requestAnimationFrame(() => this.hoverPick()));
		}), this.stage.addEventListener("mouseleave", () => {
			this.pointerAt = null, this.hoverPick();
		}), this.canvas.addEventListener("mousedown", (e) => {
			this.pressedAt = [e.clientX, e.clientY], this.viewAtPress = this.plot?.get("camera").view.slice();
		}), this.canvas.addEventListener("click", (e) => {
			let [t, n] = this.pressedAt ?? [e.clientX, e.clientY];
			Math.hypot(e.clientX - t, e.clientY - n) >= 3 || (this.viewAtPress && this.plot.set({ cameraView: this.viewAtPress }), this.sketched([this.sketch.at(e)]));
		}), new ResizeObserver(() => this.resize()).observe(this.stage);
	}
	wireToolbar() {
		for (let e of this.root.querySelectorAll("[data-mode]")) e.addEventListener("click", () => {
			this.sketch.setMode(e.dataset.mode);
			for (let t of this.root.querySelectorAll("[data-mode]")) t.setAttribute("aria-pressed", String(t === e));
		});
		this.root.querySelector("[data-action=reset]").addEventListener("click", () => this.fitView(!0)), this.root.querySelector("[data-action=clear]").addEventListener("click", () => this.plot?.deselect());
	}
	async update(e) {
		let { hover: t, answered: n, labels: r, selected: i, ...a } = e;
		this.answerArrived(n);
		let o = JSON.stringify(a);
		if (this.plot && o === this.drawnJson) {
			let n = JSON.stringify(r) !== JSON.stringify(this.data.labels);
			this.data = e, this.hoverAnswered(t), n && this.paintOverlay();
			return;
		}
		let s = performance.now();
		this.data = e, this.hoverTexts.clear(), this.stage.style.height = `${e.height}px`, this.canvas.setAttribute("aria-label", e.label);
		let [c, l, u, d] = await Promise.all([
			e.positions,
			e.codes,
			e.highlight,
			e.selected
		].map((e) => e ? this.columns.blob(e) : null));
		if (this.data !== e) return;
		let f = await ja;
		if (await this.drawing, this.data !== e) return;
		this.plot || this.createPlot();
		let p = this.decode(e.n, c, l);
		p && "selected" in e && (clearTimeout(this.pending?.timer), this.pending = null, this.selected = d ? Array.from(new Uint32Array(d)) : []), this.style(e, u), this.legend.show(e.legend, e.palette), p && this.fitView(!1), this.drawing = this.plot.draw(this.points, {
			zDataType: "categorical",
			wDataType: "categorical",
			spatialIndex: f,
			preventFilterReset: !p
		}), await this.drawing, this.data === e && (this.drawnJson = o, this.restore(t), this.recordDraw(e, s), this.joinLink(e.link));
	}
	answerArrived(e) {
		this.pending && e !== this.answered && requestAnimationFrame(() => setTimeout(() => this.drawSelection())), this.answered = e;
	}
	decode(e, t, n) {
		return this.codes = new Uint8Array(n, 0, e), t !== this.positions && (this.positions = t, {x: this.x, y: this.y} = pa(t, e), this.points = Array.from({ length: e }, (e, t) => [
			this.x[t],
			this.y[t],
			0,
			0
		]), !0);
	}
	style(e, t) {
		let n = e.n, r = null;
		if (t) {
			let i = new Uint8Array(t);
			r = Array(n);
			let a = 0, o = n - e.highlighted;
			for (let t = 0; t < n; t += 1) {
				let n = ma(i, t), s = this.points[t];
				s[2] = n ? this.codes[t] : e.dimmed, s[3] = n, n ? r[o++] = t : r[a++] = t;
			}
		} else for (let e = 0; e < n; e += 1) this.points[e][2] = this.codes[e], this.points[e][3] = 0;
		this.plot.set({
			pointColor: e.palette.map(([e, t]) => Pa(e, t)),
			colorBy: "valueA",
			pointSize: [e.pointSize, e.highlightSize],
			sizeBy: t ? "valueB" : null,
			pointOrder: r,
			pointSizeSelected: 2,
			pointOutlineWidth: 2
		});
	}
	restore(e) {
		this.applyFilter(), this.selected.length ? this.plot.select(this.selected, { preventEvent: !0 }) : this.plot.deselect({ preventEvent: !0 }), e && this.hoverTexts.set(e.row, e), this.hovered = -1, this.hoverPick(), this.paintOverlay();
		let { n: t, highlight: n, highlighted: r } = this.data, i = n ? `, ${r.toLocaleString("en")} highlighted` : "";
		this.status.textContent = `${t.toLocaleString("en")} points${i}`;
	}
	recordDraw(e, t) {
		this.canvas.getContext("2d").getImageData(0, 0, 1, 1);
		let n = [
			e.positions,
			e.codes,
			e.highlight
		].filter(Boolean).map(this.columns.arrivedAt).filter((e) => e >= this.lastDraw.ended);
		this.lastDraw = {
			started: Math.min(t, ...n),
			ended: performance.now()
		}, this.draws += 1, this.root.mapCanvas = this, Object.assign(this.root.dataset, {
			draws: String(this.draws),
			points: String(e.n),
			highlight: e.highlight ?? "",
			codes: e.codes
		});
	}
	fitView(e) {
		let [t, n, r, i] = this.data.bounds, a = da * Math.max(r - t, i - n), o = this.plot.zoomToArea({
			x: t - a,
			y: n - a,
			width: r - t + 2 * a,
			height: i - n + 2 * a
		}, {
			transition: e,
			transitionDuration: 300
		});
		return e || (this.fitted = this.plot.get("camera").view[0]), o;
	}
	applyFilter() {
		if (!this.plot || !this.codes) return;
		let e = this.legend.hidden;
		if (!e.size) {
			this.plot.get("isPointsFiltered") && this.plot.unfilter({ preventEvent: !0 });
			return;
		}
		let t = [];
		for (let n = 0; n < this.codes.length; n += 1) e.has(this.codes[n]) || t.push(n);
		this.plot.filter(t, { preventEvent: !0 });
	}
	selectionMade(e, t = []) {
		this.selected = e, this.host.select(e), clearTimeout(this.pending?.timer), this.pending = {
			points: e,
			maps: [...t, ...this.linked()],
			timer: setTimeout(() => this.drawSelection(), ua)
		};
	}
	selectFromPython(e) {
		clearTimeout(this.pending?.timer), this.pending = null, this.selected = e, this.plot && this.x && (e.length ? this.plot.select(e, { preventEvent: !0 }) : this.plot.deselect({ preventEvent: !0 }), this.sketch.hold(null));
	}
	drawSelection() {
		if (!this.pending) return;
		let { points: e, maps: t, timer: n } = this.pending;
		this.pending = null, clearTimeout(n);
		for (let n of t) n.selected = e, e.length ? n.plot.select(e, { preventEvent: !0 }) : n.plot.deselect({ preventEvent: !0 });
		this.sketch.hold(null);
	}
	visible() {
		let e = this.legend.hidden;
		return e.size ? (t) => !e.has(this.codes[t]) : () => !0;
	}
	drawnSize() {
		return this.data.highlight ? this.data.highlightSize : this.data.pointSize;
	}
	pickRadius() {
		return Math.max(6, this.drawnSize());
	}
	transform() {
		let { width: e, height: t } = this.stage.getBoundingClientRect();
		return Ca(this.plot.get("camera").view, e, t);
	}
	hoverPick() {
		if (this.hoverFrame = 0, !this.plot || !this.x) return;
		let e = this.pointerAt, t = e ? Ta(this.x, this.y, this.visible(), this.transform(), e[0], e[1], this.pickRadius()) : -1;
		t !== this.hovered && (this.hovered = t, clearTimeout(this.hoverTimer), t >= 0 && !this.hoverTexts.has(t) && (this.hoverTimer = setTimeout(() => this.host.askHover(t), 120)), this.showTooltip());
	}
	hoverAnswered(e) {
		e && this.hoverTexts.set(e.row, e), this.showTooltip();
	}
	sketched(e) {
		if (!this.plot || !this.x) return;
		let t = this.transform();
		if (e.length > 2) {
			this.sketch.hold(e), this.selectionMade(Ea(this.x, this.y, this.visible(), t, e), [this]);
			return;
		}
		let [n, r] = e[e.length - 1], i = Ta(this.x, this.y, this.visible(), t, n, r, this.pickRadius());
		i >= 0 && this.selectionMade([i], [this]);
	}
	showTooltip() {
		let e = this.hovered;
		if (e < 0 || !this.plot) {
			this.tooltip.hidden = !0, this.sketch.showRing(null);
			return;
		}
		let [t, n] = this.plot.getScreenPosition(e) ?? [0, 0];
		this.sketch.showRing([
			t,
			n,
			Math.max(4, this.drawnSize() / 2 + 3)
		]);
		let r = this.hoverTexts.get(e);
		this.tooltip.textContent = r?.text ?? `#${e} …`, r?.image && this.tooltip.prepend(Object.assign(document.createElement("img"), {
			src: r.image,
			alt: ""
		})), this.tooltip.hidden = !1;
		let i = this.stage.getBoundingClientRect(), a = this.tooltip.getBoundingClientRect();
		this.tooltip.style.left = `${Math.max(0, Math.min(t + 12, i.width - a.width))}px`;
		let o = n + 12;
		this.tooltip.style.top = `${o + a.height <= i.height ? o : Math.max(0, n - 12 - a.height)}px`;
	}
	paintOverlay() {
		if (!this.plot || !this.data) return;
		let e = this.plot.get("camera").view, t = this.transform();
		ya(this.overlay, this.data, (e, n) => wa(t, e, n), e[0] / (this.fitted ?? e[0])), this.hovered >= 0 && this.showTooltip();
	}
	resize() {
		let { width: e, height: t } = this.stage.getBoundingClientRect();
		!this.plot || e < 1 || t < 1 || (this.plot.set({
			width: Math.floor(e),
			height: Math.floor(t)
		}), this.paintOverlay());
	}
	joinLink(e) {
		this.link !== e && (this.link && Ma.get(this.link)?.delete(this), this.link = e, e && Ma.set(e, (Ma.get(e) ?? /* @__PURE__ */ new Set()).add(this)));
	}
	linked() {
		return this.link ? [...Ma.get(this.link)].filter((e) => e !== this && e.plot) : [];
	}
	shareView(e) {
		if (!(this.followed && this.followed.every((t, n) => t === e[n]))) for (let t of this.linked()) t.followed = Array.from(e), t.plot.set({ cameraView: e });
	}
	moveTo(e) {
		this.root.parentNode !== e && e.appendChild(this.root);
	}
	destroy() {
		this.joinLink(null), clearTimeout(this.hoverTimer), clearTimeout(this.pending?.timer), this.plot?.destroy(), this.root.remove();
	}
}, La = /* @__PURE__ */ o(((e, t) => {
	function n(e) {
		let t;
		if (e instanceof Uint8Array) t = e;
		else if (typeof e == "string") t = new TextEncoder().encode(e);
		else throw Error("Input must be an string, Buffer or Uint8Array");
		return t;
	}
	function r(e) {
		return Array.prototype.map.call(e, function(e) {
			return (e < 16 ? "0" : "") + e.toString(16);
		}).join("");
	}
	function i(e) {
		return (4294967296 + e).toString(16).substring(1);
	}
	function a(e, t, n) {
		let r = "\n" + e + " = ";
		for (let a = 0; a < t.length; a += 2) {
			if (n === 32) r += i(t[a]).toUpperCase(), r += " ", r += i(t[a + 1]).toUpperCase();
			else if (n === 64) r += i(t[a + 1]).toUpperCase(), r += i(t[a]).toUpperCase();
			else throw Error("Invalid size " + n);
			a % 6 == 4 ? r += "\n" + Array(e.length + 4).join(" ") : a < t.length - 2 && (r += " ");
		}
		console.log(r);
	}
	function o(e, t, n) {
		let r = (/* @__PURE__ */ new Date()).getTime(), i = new Uint8Array(t);
		for (let e = 0; e < t; e++) i[e] = e % 256;
		let a = (/* @__PURE__ */ new Date()).getTime();
		console.log("Generated random input in " + (a - r) + "ms"), r = a;
		for (let a = 0; a < n; a++) {
			let n = e(i), a = (/* @__PURE__ */ new Date()).getTime(), o = a - r;
			r = a, console.log("Hashed in " + o + "ms: " + n.substring(0, 20) + "..."), console.log(Math.round(t / (1 << 20) / (o / 1e3) * 100) / 100 + " MB PER SECOND");
		}
	}
	t.exports = {
		normalizeInput: n,
		toHex: r,
		debugPrint: a,
		testSpeed: o
	};
})), Ra = (/* @__PURE__ */ o(((e, t) => {
	var n = La();
	function r(e, t, n) {
		let r = e[t] + e[n], i = e[t + 1] + e[n + 1];
		r >= 4294967296 && i++, e[t] = r, e[t + 1] = i;
	}
	function i(e, t, n, r) {
		let i = e[t] + n;
		n < 0 && (i += 4294967296);
		let a = e[t + 1] + r;
		i >= 4294967296 && a++, e[t] = i, e[t + 1] = a;
	}
	function a(e, t) {
		return e[t] ^ e[t + 1] << 8 ^ e[t + 2] << 16 ^ e[t + 3] << 24;
	}
	function o(e, t, n, a, o, s) {
		let c = u[o], d = u[o + 1], f = u[s], p = u[s + 1];
		r(l, e, t), i(l, e, c, d);
		let m = l[a] ^ l[e], h = l[a + 1] ^ l[e + 1];
		l[a] = h, l[a + 1] = m, r(l, n, a), m = l[t] ^ l[n], h = l[t + 1] ^ l[n + 1], l[t] = m >>> 24 ^ h << 8, l[t + 1] = h >>> 24 ^ m << 8, r(l, e, t), i(l, e, f, p), m = l[a] ^ l[e], h = l[a + 1] ^ l[e + 1], l[a] = m >>> 16 ^ h << 16, l[a + 1] = h >>> 16 ^ m << 16, r(l, n, a), m = l[t] ^ l[n], h = l[t + 1] ^ l[n + 1], l[t] = h >>> 31 ^ m << 1, l[t + 1] = m >>> 31 ^ h << 1;
	}
	var s = new Uint32Array([
		4089235720,
		1779033703,
		2227873595,
		3144134277,
		4271175723,
		1013904242,
		1595750129,
		2773480762,
		2917565137,
		1359893119,
		725511199,
		2600822924,
		4215389547,
		528734635,
		327033209,
		1541459225
	]), c = new Uint8Array([
		0,
		1,
		2,
		3,
		4,
		5,
		6,
		7,
		8,
		9,
		10,
		11,
		12,
		13,
		14,
		15,
		14,
		10,
		4,
		8,
		9,
		15,
		13,
		6,
		1,
		12,
		0,
		2,
		11,
		7,
		5,
		3,
		11,
		8,
		12,
		0,
		5,
		2,
		15,
		13,
		10,
		14,
		3,
		6,
		7,
		1,
		9,
		4,
		7,
		9,
		3,
		1,
		13,
		12,
		11,
		14,
		2,
		6,
		5,
		10,
		4,
		0,
		15,
		8,
		9,
		0,
		5,
		7,
		2,
		4,
		10,
		15,
		14,
		1,
		11,
		12,
		6,
		8,
		3,
		13,
		2,
		12,
		6,
		10,
		0,
		11,
		8,
		3,
		4,
		13,
		7,
		5,
		15,
		14,
		1,
		9,
		12,
		5,
		1,
		15,
		14,
		13,
		4,
		10,
		0,
		7,
		6,
		3,
		9,
		2,
		8,
		11,
		13,
		11,
		7,
		14,
		12,
		1,
		3,
		9,
		5,
		0,
		15,
		4,
		8,
		6,
		2,
		10,
		6,
		15,
		14,
		9,
		11,
		3,
		0,
		8,
		12,
		2,
		13,
		7,
		1,
		4,
		10,
		5,
		10,
		2,
		8,
		4,
		7,
		6,
		1,
		5,
		15,
		11,
		9,
		14,
		3,
		12,
		13,
		0,
		0,
		1,
		2,
		3,
		4,
		5,
		6,
		7,
		8,
		9,
		10,
		11,
		12,
		13,
		14,
		15,
		14,
		10,
		4,
		8,
		9,
		15,
		13,
		6,
		1,
		12,
		0,
		2,
		11,
		7,
		5,
		3
	].map(function(e) {
		return e * 2;
	})), l = /* @__PURE__ */ new Uint32Array(32), u = /* @__PURE__ */ new Uint32Array(32);
	function d(e, t) {
		let n = 0;
		for (n = 0; n < 16; n++) l[n] = e.h[n], l[n + 16] = s[n];
		for (l[24] ^= e.t, l[25] ^= e.t / 4294967296, t && (l[28] = ~l[28], l[29] = ~l[29]), n = 0; n < 32; n++) u[n] = a(e.b, 4 * n);
		for (n = 0; n < 12; n++) o(0, 8, 16, 24, c[n * 16 + 0], c[n * 16 + 1]), o(2, 10, 18, 26, c[n * 16 + 2], c[n * 16 + 3]), o(4, 12, 20, 28, c[n * 16 + 4], c[n * 16 + 5]), o(6, 14, 22, 30, c[n * 16 + 6], c[n * 16 + 7]), o(0, 10, 20, 30, c[n * 16 + 8], c[n * 16 + 9]), o(2, 12, 22, 24, c[n * 16 + 10], c[n * 16 + 11]), o(4, 14, 16, 26, c[n * 16 + 12], c[n * 16 + 13]), o(6, 8, 18, 28, c[n * 16 + 14], c[n * 16 + 15]);
		for (n = 0; n < 16; n++) e.h[n] = e.h[n] ^ l[n] ^ l[n + 16];
	}
	var f = new Uint8Array([
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0
	]);
	function p(e, t, n, r) {
		if (e === 0 || e > 64) throw Error("Illegal output length, expected 0 < length <= 64");
		if (t && t.length > 64) throw Error("Illegal key, expected Uint8Array with 0 < length <= 64");
		if (n && n.length !== 16) throw Error("Illegal salt, expected Uint8Array with length is 16");
		if (r && r.length !== 16) throw Error("Illegal personal, expected Uint8Array with length is 16");
		let i = {
			b: /* @__PURE__ */ new Uint8Array(128),
			h: /* @__PURE__ */ new Uint32Array(16),
			t: 0,
			c: 0,
			outlen: e
		};
		f.fill(0), f[0] = e, t && (f[1] = t.length), f[2] = 1, f[3] = 1, n && f.set(n, 32), r && f.set(r, 48);
		for (let e = 0; e < 16; e++) i.h[e] = s[e] ^ a(f, e * 4);
		return t && (m(i, t), i.c = 128), i;
	}
	function m(e, t) {
		for (let n = 0; n < t.length; n++) e.c === 128 && (e.t += e.c, d(e, !1), e.c = 0), e.b[e.c++] = t[n];
	}
	function h(e) {
		for (e.t += e.c; e.c < 128;) e.b[e.c++] = 0;
		d(e, !0);
		let t = new Uint8Array(e.outlen);
		for (let n = 0; n < e.outlen; n++) t[n] = e.h[n >> 2] >> 8 * (n & 3);
		return t;
	}
	function g(e, t, r, i, a) {
		r = r || 64, e = n.normalizeInput(e), i && (i = n.normalizeInput(i)), a && (a = n.normalizeInput(a));
		let o = p(r, t, i, a);
		return m(o, e), h(o);
	}
	function _(e, t, r, i, a) {
		let o = g(e, t, r, i, a);
		return n.toHex(o);
	}
	t.exports = {
		blake2b: g,
		blake2bHex: _,
		blake2bInit: p,
		blake2bUpdate: m,
		blake2bFinal: h
	};
})))(), za = 8;
function Ba(e) {
	let t = new TextEncoder(), n = /* @__PURE__ */ new Map();
	return e.map((e) => {
		let r = (0, Ra.blake2bHex)(t.encode(e), null, za), i = n.get(r) ?? 0;
		return n.set(r, i + 1), `${r}:${i}`;
	});
}
function Va(e, t, n) {
	let r = new Uint8Array(e.length);
	if (!t) return r;
	if (n) {
		let n = new RegExp(t, "iu");
		e.forEach((e, t) => {
			r[t] = +!!n.test(e);
		});
	} else {
		let n = t.toLowerCase();
		e.forEach((e, t) => {
			r[t] = +!!e.toLowerCase().includes(n);
		});
	}
	return r;
}
function Ha(e) {
	let t = new Uint8Array(Math.ceil(e.length / 8));
	return e.forEach((e, n) => {
		e && (t[n >> 3] |= 1 << (n & 7));
	}), t;
}
var Ua = [
	"=",
	"+",
	"-",
	"@",
	"	",
	"\r"
], Wa = (e) => {
	let t = String(e);
	return typeof e == "string" && Ua.some((e) => t.startsWith(e)) && (t = `'${t}`), /[",\r\n]/.test(t) ? `"${t.replaceAll("\"", "\"\"")}"` : t;
}, Ga = (e, t) => [e, ...t].map((e) => e.map(Wa).join(",")).join("\r\n") + "\r\n", Ka = "explorer-map-data", qa = 100, Ja = 200, Ya = 500, Xa = 60, Za = `
body { margin: 16px 24px; font: ${la(400, 14)}; color: ${na}; background: white; }
h1 { font-size: 20px; margin: 0 0 8px; } h2 { font-size: 16px; margin: 16px 0 6px; }
.row { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; margin: 6px 0; }
input[type=text], input[type=search] { font: inherit; padding: 3px 6px; border: 1px solid #868e96; border-radius: 6px; }
button { font: inherit; padding: 3px 10px; border: 1px solid #868e96; border-radius: 6px; background: white;
  color: ${na}; cursor: pointer; }
button:focus-visible, input:focus-visible { outline: 2px solid #c2255c; outline-offset: 1px; }
.note { color: #495057; }
table { border-collapse: collapse; margin-top: 6px; }
th, td { text-align: left; padding: 2px 8px; border-bottom: 1px solid #dee2e6; vertical-align: top; }
td.text { max-width: 640px; white-space: pre-wrap; }
`, $ = (e, t = {}, ...n) => {
	let r = Object.assign(document.createElement(e), t);
	return r.append(...n), r;
};
function Qa(e) {
	let t = atob(e), n = new Uint8Array(t.length);
	for (let e = 0; e < t.length; e += 1) n[e] = t.charCodeAt(e);
	return n;
}
async function $a(e) {
	let t = new Blob([Qa(e)]).stream().pipeThrough(new DecompressionStream("gzip"));
	return JSON.parse(await new Response(t).text());
}
function eo(e, t) {
	let n = $("a", {
		href: URL.createObjectURL(new Blob([t], { type: "text/csv" })),
		download: e
	});
	document.body.append(n), n.click(), n.remove(), setTimeout(() => URL.revokeObjectURL(n.href), 1e4);
}
var to = (e) => Math.min(6, Math.max(1.5, 9 - 1.3 * Math.log10(Math.max(e, 1)))), no = (e, t) => Math.max(1.6 * to(e), to(t)), ro = class {
	constructor(e, t) {
		this.data = t, this.view = {
			...t.view,
			code: "",
			hover: null,
			answered: 0,
			element: "file",
			selected: null
		}, this.n = this.view.n;
		let { highlight: n, highlighted: r, highlightSize: i } = this.view;
		this.unsearched = {
			highlight: n,
			highlighted: r,
			highlightSize: i
		}, this.answered = 0, this.selected = [], this.tags = new Map(Object.entries(t.tags).map(([e, t]) => [e, new Set(t)])), this.blobs = /* @__PURE__ */ new Map(), this.arrived = /* @__PURE__ */ new Map();
		for (let [e, n] of Object.entries(t.columns)) this.keep(e, Qa(n).buffer);
		this.rows = Promise.all([
			$a(t.texts),
			$a(t.values),
			t.rowIds ? $a(t.rowIds) : null
		]).then(([e, t, n]) => ({
			texts: e,
			values: t,
			ids: n
		})), this.build(e), this.map = new Ia(this.mapRoot, {
			columns: {
				blob: (e) => Promise.resolve(this.blobs.get(e)),
				arrivedAt: (e) => this.arrived.get(e)
			},
			select: (e) => this.selectionMade(e),
			askHover: (e) => this.hoverAsked(e)
		});
	}
	keep(e, t) {
		this.blobs.set(e, t), this.arrived.set(e, performance.now());
	}
	build(e) {
		document.head.append($("style", { textContent: Za })), this.search = $("input", {
			type: "search",
			id: "map-search"
		}), this.regex = $("input", {
			type: "checkbox",
			id: "map-regex"
		}), this.found = $("span", {
			className: "note",
			role: "status"
		}), this.mapRoot = $("div").attachShadow({ mode: "open" }), this.count = $("p", { role: "status" }), this.table = $("table"), this.tagName = $("input", {
			type: "text",
			id: "map-tag-name",
			maxLength: Xa
		}), this.tagNote = $("span", {
			className: "note",
			role: "status"
		}), this.tagList = $("ul");
		let t = (e, t) => {
			let n = $("button", {
				type: "button",
				textContent: e
			});
			return n.addEventListener("click", t), n;
		};
		e.append($("h1", { textContent: this.view.label }), $("div", { className: "row" }, $("label", {
			htmlFor: "map-search",
			textContent: "Search"
		}), this.search, $("label", {}, this.regex, " Regular expression"), this.found), this.mapRoot.host, $("p", {
			className: "note",
			textContent: "Each point is one text; hover for it. Drag to pan, scroll to zoom, click a point or use Box or Lasso to select; the legend hides and shows categories. Only closeness means something: the axes have no units."
		}), $("h2", { textContent: "Selection" }), this.count, $("div", { className: "row" }, t("Download the selection as CSV", () => this.downloadSelection())), this.table, $("h2", { textContent: "Tags" }), $("div", { className: "row" }, $("label", {
			htmlFor: "map-tag-name",
			textContent: "Tag name"
		}), this.tagName, t("Tag the selection", () => this.tagSelection()), this.tagNote), this.tagList, $("div", { className: "row" }, t("Download the tags as CSV", () => this.downloadTags())), $("p", {
			className: "note",
			textContent: "Read the tags back in the app: Map → Tags → upload this CSV."
		}), $("p", {
			className: "note",
			textContent: this.data.about
		}));
		let n = 0, r = () => {
			clearTimeout(n), n = setTimeout(() => this.searched(), Ja);
		};
		this.search.addEventListener("input", r), this.regex.addEventListener("change", r), this.showSelection(), this.showTags();
	}
	async hoverAsked(e) {
		let { texts: t, values: n } = await this.rows, r = t[e], i = r.length <= Ya ? r : [...r].slice(0, 499).join("") + "…", a = this.data.thumbnails?.[e];
		this.map.hoverAnswered({
			row: e,
			text: `#${e} · ${this.data.valueTitle}: ${n[e]}\n${i}`,
			image: a ? `data:image/jpeg;base64,${a}` : null
		});
	}
	selectionMade(e) {
		this.selected = e, this.showSelection(), setTimeout(() => this.map.answerArrived(++this.answered));
	}
	async showSelection() {
		let e = this.selected;
		this.count.textContent = e.length ? `${e.length.toLocaleString("en")} selected${e.length > qa ? `, the first ${qa} listed` : ""}.` : "Nothing selected: click a point, or use Box or Lasso.";
		let { texts: t, values: n } = await this.rows;
		if (e !== this.selected) return;
		let r = $("tr", {}, ...[
			"#",
			"text",
			this.data.valueTitle
		].map((e) => $("th", {
			scope: "col",
			textContent: e
		})));
		this.table.replaceChildren(...e.length ? [$("thead", {}, r)] : [], $("tbody", {}, ...e.slice(0, qa).map((e) => $("tr", {}, $("td", { textContent: String(e) }), $("td", {
			className: "text",
			textContent: t[e]
		}), $("td", { textContent: n[e] })))));
	}
	async rowIds() {
		let e = await this.rows;
		return e.ids ?? (e.ids = Ba(e.texts)), e.ids;
	}
	place(e) {
		let t = new Float32Array(this.blobs.get(this.view.positions)), { scale: n, centre: r } = this.data.place;
		return [t[e] / n + r[0], t[this.n + e] / n + r[1]];
	}
	async downloadSelection() {
		let [{ texts: e, values: t }, n] = await Promise.all([this.rows, this.rowIds()]), r = this.selected.map((r) => [
			n[r],
			e[r],
			t[r],
			...this.place(r)
		]);
		eo("map-selection.csv", Ga([
			"row_id",
			"text",
			this.data.valueTitle,
			"x",
			"y"
		], r));
	}
	tagSelection() {
		let e = this.tagName.value.split(/\s+/).filter(Boolean).join(" ");
		if (!e) this.tagNote.textContent = "A tag needs a name: type one, such as “questions” or “possible mislabel”.";
		else if (!this.selected.length) this.tagNote.textContent = "Select some points first: click one, or use Box or Lasso.";
		else {
			let t = this.tags.get(e) ?? /* @__PURE__ */ new Set();
			for (let e of this.selected) t.add(e);
			this.tags.set(e, t), this.tagNote.textContent = `“${e}” now has ${t.size.toLocaleString("en")} texts.`, this.showTags();
		}
	}
	showTags() {
		this.tagList.replaceChildren(...[...this.tags].map(([e, t]) => {
			let n = $("button", {
				type: "button",
				textContent: "Remove"
			});
			return n.setAttribute("aria-label", `Remove the tag “${e}”`), n.addEventListener("click", () => {
				this.tags.delete(e), this.showTags();
			}), $("li", {}, `${e}: ${t.size.toLocaleString("en")} texts `, n);
		}));
	}
	async downloadTags() {
		if (!this.tags.size) {
			this.tagNote.textContent = "There are no tags yet: select points and press “Tag the selection”.";
			return;
		}
		let [{ texts: e }, t] = await Promise.all([this.rows, this.rowIds()]), n = [...this.tags], r = e.map((e, r) => [
			t[r],
			e,
			...n.map(([, e]) => e.has(r))
		]);
		eo("map-tags.csv", Ga([
			"row_id",
			"text",
			...n.map(([e]) => `tag_${e}`)
		], r));
	}
	async searched() {
		let e = this.search.value, { texts: t } = await this.rows, n;
		try {
			n = Va(t, e, this.regex.checked);
		} catch (t) {
			this.found.textContent = `“${e}” is not a regular expression the browser reads (${t.message}); fix it or search for plain text.`;
			return;
		}
		let r = n.reduce((e, t) => e + t, 0);
		this.found.textContent = e ? `${r.toLocaleString("en")} texts found` : "";
		let i = this.unsearched;
		if (e) {
			let t = `search ${e} ${this.regex.checked}`;
			this.keep(t, Ha(n).buffer), i = {
				highlight: t,
				highlighted: r,
				highlightSize: no(this.n, r)
			};
		}
		this.view = {
			...this.view,
			...i
		}, await this.map.update(this.view);
	}
}, io = JSON.parse(document.getElementById(Ka).textContent), ao = new ro(document.body.appendChild($("main")), io);
ao.map.update(ao.view);
export { Ka as DATA_ID };
