-- dbpress's clean-room prelude for sysbench 1.0 Lua scripts: sysbench.rand
-- (see base.lua for how the parts fit).

local dbp = ...
local ffi, C, ctx = dbp.ffi, dbp.C, dbp.ctx

-- sysbench.rand: the algorithms are dbpress's (crates/core/src/rand.rs), per state.
local r_uniform, r_default = C.rand_uniform, C.rand_default
local r_gaussian, r_special, r_pareto = C.rand_gaussian, C.rand_special, C.rand_pareto
local r_str, r_double, r_u64 = C.rand_str, C.rand_double, C.rand_uint64
local unsupported = dbp.unsupported
local strbuf, strbuf_len = nil, 0
sysbench.rand = setmetatable({
  uniform = function(a, b) return r_uniform(ctx, a, b) end,
  default = function(a, b) return r_default(ctx, a, b) end,
  gaussian = function(a, b) return r_gaussian(ctx, a, b) end,
  special = function(a, b) return r_special(ctx, a, b) end,
  pareto = function(a, b) return r_pareto(ctx, a, b) end,
  uniform_double = function() return r_double(ctx) end,
  uniform_uint64 = function() return r_u64(ctx) end,
  string = function(fmt)
    local n = #fmt
    if n > strbuf_len then
      strbuf, strbuf_len = ffi.new("char[?]", n), n
    end
    r_str(ctx, fmt, n, strbuf)
    return ffi.string(strbuf, n)
  end,
}, unsupported("sysbench.rand"))

