-- dbpress's clean-room prelude for sysbench 1.0 Lua scripts: sysbench.cmdline's functions, the
-- options a script declares as `help` prints them, and its commands
-- (see base.lua for how the parts fit).

local dbp = ...
local cmdline = sysbench.cmdline
local PARALLEL = cmdline.PARALLEL_COMMAND

-- What a script may leave unset reads as nil; any other missing name is named as unsupported.
local settable = { options = true, commands = true, command = true }
setmetatable(cmdline, {
  __index = function(_, k)
    if settable[k] then return nil end
    error(string.format("sysbench.cmdline.%s is not supported by dbpress yet (#41)", tostring(k)), 2)
  end,
})

-- A command's row: a table whose first item is set (anything else declares no command, as
-- under sysbench: `c = "text"` and `c = {}` are unknown commands).
local function entry(name)
  local commands = rawget(cmdline, "commands")
  if type(commands) ~= "table" then return nil end
  local e = commands[name]
  if type(e) ~= "table" or e[1] == nil then return nil end
  return e
end

function cmdline.command_defined(name)
  return entry(name) ~= nil
end

function cmdline.command_parallel(name)
  local e = entry(name)
  return e ~= nil and e[2] == PARALLEL
end

-- Run command `name`'s function in this state: false when it returned false (a failure).
function cmdline.call_command(name)
  local e = entry(name)
  if e == nil or type(e[1]) ~= "function" then
    error(string.format("no function for the '%s' command in sysbench.cmdline.commands", tostring(name)), 2)
  end
  return e[1]() ~= false
end

-- The options' table checked as sysbench checks it (each a table under a string name).
function cmdline.read_cmdline_options()
  local options = rawget(cmdline, "options")
  if options == nil then return true end
  for name, row in pairs(options) do
    if type(name) ~= "string" or type(row) ~= "table" then
      -- The place sysbench's own sysbench.cmdline.lua raises it from, as it names it.
      error('[string "sysbench.cmdline.lua"]:132: wrong table structure in sysbench.cmdline.options', 0)
    end
  end
  return true
end

-- How an option's value is spelled in help, by its ARG_ type or else its default.
local spelled_arg = { [1] = "[=on|off]", [2] = "=N", [3] = "=SIZE", [4] = "=N", [5] = "=STRING",
  [6] = "=[LIST,...]", [7] = "=FILENAME" }
local spelled_default = { boolean = "[=on|off]", number = "=N", table = "=[LIST,...]" }

local function shown(default)
  local t = type(default)
  if t == "nil" then return "" end
  if t == "boolean" then return default and " [on]" or " [off]" end
  if t == "table" then
    local parts = {}
    for i, v in ipairs(default) do parts[i] = tostring(v) end
    return " [" .. table.concat(parts, ",") .. "]"
  end
  return " [" .. tostring(default) .. "]"
end

-- The declared options, sorted and aligned, then an empty line, as sysbench prints them.
function cmdline.print_test_options()
  local options = rawget(cmdline, "options") or {}
  local names, left, width = {}, {}, 0
  for name, row in pairs(options) do
    names[#names + 1] = name
    left[name] = "--" .. name .. (spelled_arg[row[3]] or spelled_default[type(row[2])] or "=STRING")
    if #left[name] > width then width = #left[name] end
  end
  table.sort(names)
  for _, name in ipairs(names) do
    local row = options[name]
    io.write("  ", left[name], string.rep(" ", width - #left[name]), " ",
      tostring(row[1] or ""), shown(row[2]), "\n")
  end
  io.write("\n")
end

-- The `help` command without a help() of the script's: its options under its file's name.
function dbp.print_help(script_name)
  io.write(script_name, " options:\n")
  cmdline.print_test_options()
end
