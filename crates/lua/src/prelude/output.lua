-- dbpress's clean-room prelude for sysbench 1.0 Lua scripts: a script's output through
-- dbpress's stdout (see output.rs for why), run before the other parts. `print`, `io.write`
-- and `io.stdout:write` keep Lua's behaviour (tab-separated `tostring`s and a newline; strings
-- and numbers, "%.14g"; the file returned) but write through `out`, one call per print.

local out_addr = ...
local ffi = require("ffi")
local out = ffi.cast("void (*)(const char *, size_t)", out_addr)
local select, type, tostring, error = select, type, tostring, error
local concat, format = table.concat, string.format
local stdout, G = io.stdout, _G

function print(...)
  local n = select("#", ...)
  local parts = {}
  for i = 1, n do
    -- The global tostring at the time of the call, as Lua's print looks it up.
    local s = G.tostring((select(i, ...)))
    if type(s) ~= "string" then
      error("'tostring' must return a string to 'print'", 2)
    end
    parts[i] = s
  end
  local line = concat(parts, "\t") .. "\n"
  out(line, #line)
end

-- The arguments of a write to stdout, checked and written as one piece.
local function write_stdout(level, ...)
  local n = select("#", ...)
  local parts = {}
  for i = 1, n do
    local v = select(i, ...)
    local t = type(v)
    if t == "number" then
      parts[i] = format("%.14g", v)
    elseif t == "string" then
      parts[i] = v
    else
      error(format("bad argument #%d to 'write' (string expected, got %s)", i, t), level)
    end
  end
  local text = concat(parts)
  out(text, #text)
end

local file = getmetatable(stdout)
local file_write, io_write, io_output = file.write, io.write, io.output

file.write = function(f, ...)
  if rawequal(f, stdout) then
    write_stdout(3, ...)
    return f
  end
  return file_write(f, ...)
end

io.write = function(...)
  local f = io_output()
  if rawequal(f, stdout) then
    write_stdout(3, ...)
    return f
  end
  return io_write(...)
end
