-- Neovim headless (Debian's 0.7.2 works): go-to-definition through Neovim's own LSP client on `codehop lsp`,
-- into an installed package. Opens NV_FILE (relative to NV_ROOT), finds the first line containing NV_NEEDLE
-- (default "s.get("), asks textDocument/definition on the needle's member name and writes where it landed:
-- "<file>:<line 1-based>:<col 0-based>" per location (or "error ..." / "no location"), then the elapsed ms.
-- NV_CMD: the server command, space-separated (default "python -m codehop lsp"; set PYTHONPATH for a worktree).
-- usage: NV_ROOT=/tmp/app NV_FILE=app/client.py NV_OUT=/tmp/def.out \
--        nvim --headless --clean -c "luafile tests/benchmarks/nvim_definition.lua"
local root = os.getenv("NV_ROOT") or vim.fn.getcwd()
local file = os.getenv("NV_FILE") or "app/client.py"
local needle = os.getenv("NV_NEEDLE") or "s.get("
local out_path = os.getenv("NV_OUT") or "/tmp/nvim_definition.out"
local cmd = vim.split(os.getenv("NV_CMD") or "python -m codehop lsp", " ", { trimempty = true })
local out = {}
local function now() return vim.loop.hrtime() / 1e6 end
local function finish()
  vim.fn.writefile(out, out_path)
  vim.cmd("qa!")
end

local client_id = vim.lsp.start_client({
  cmd = cmd,
  root_dir = root,
  name = "codehop",
  init_options = { indexWaitSeconds = 120 },
})
local t0 = now()
local ok = vim.wait(120000, function()
  local c = vim.lsp.get_client_by_id(client_id)
  return c ~= nil and c.initialized
end, 50)
if not ok then
  table.insert(out, "error: the server did not initialize")
  return finish()
end
table.insert(out, string.format("initialized after %.0f ms", now() - t0))

local path = root .. "/" .. file
local lines = vim.fn.readfile(path)
local line, col = nil, nil
for i, text in ipairs(lines) do
  local s = string.find(text, needle, 1, true)
  if s then
    -- on the member name: the character before the needle's trailing "(" (0-based column)
    line, col = i - 1, s - 1 + #needle - 2
    break
  end
end
if line == nil then
  table.insert(out, "error: " .. needle .. " not found in " .. file)
  return finish()
end

local bufnr = vim.fn.bufadd(path)
vim.fn.bufload(bufnr)
vim.api.nvim_buf_set_option(bufnr, "filetype", "python")
vim.lsp.buf_attach_client(bufnr, client_id)
local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = line, character = col } }
local t = now()
local res = vim.lsp.buf_request_sync(bufnr, "textDocument/definition", params, 120000)
local ms = now() - t
table.insert(out, string.format("asked %s:%d:%d (%s)", file, line + 1, col, needle))
local found = 0
for _, r in pairs(res or {}) do
  if r.error then table.insert(out, "error " .. vim.inspect(r.error)) end
  local result = r.result
  if result and result.uri then result = { result } end -- a single Location
  for _, loc in ipairs(result or {}) do
    local uri = loc.uri or loc.targetUri
    local range = loc.range or loc.targetSelectionRange
    table.insert(out, string.format("%s:%d:%d", vim.uri_to_fname(uri), range.start.line + 1, range.start.character))
    found = found + 1
  end
end
if found == 0 then table.insert(out, "no location") end
table.insert(out, string.format("definition took %.1f ms", ms))
vim.lsp.stop_client(client_id)
finish()
