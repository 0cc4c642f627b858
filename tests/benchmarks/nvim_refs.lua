-- Neovim headless (Debian's 0.7.2 works): codehop's textDocument/references through Neovim's own LSP client.
-- NV_ROOT: the tree (Django 5.2); NV_FUNCS: JSON list of {q, path, line, col} (0-based col of the name),
-- e.g. from refs_bench.pick_functions; NV_OUT: one line per function: qualname, locations, ms, error.
-- usage: NV_ROOT=/tmp/django NV_FUNCS=f.json NV_OUT=o.tsv nvim --headless --clean -c "luafile tests/benchmarks/nvim_refs.lua"
local root = os.getenv("NV_ROOT") or "/tmp/django-editor"
local funcs = vim.fn.json_decode(table.concat(vim.fn.readfile(os.getenv("NV_FUNCS") or "/tmp/nv/funcs.json"), "\n"))
local out = {}
local client_id = vim.lsp.start_client({
  cmd = { "codehop", "lsp" },
  root_dir = root,
  name = "codehop",
  init_options = { indexWaitSeconds = 120 },
})
local function now() return vim.loop.hrtime() / 1e6 end
local t0 = now()
vim.wait(60000, function() local c = vim.lsp.get_client_by_id(client_id); return c ~= nil and c.initialized end, 50)
table.insert(out, string.format("initialized after %.0f ms", now() - t0))
for i, f in ipairs(funcs) do
  local bufnr = vim.fn.bufadd(root .. "/" .. f.path)
  vim.fn.bufload(bufnr)
  vim.api.nvim_buf_set_option(bufnr, "filetype", "python")
  vim.lsp.buf_attach_client(bufnr, client_id)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = { line = f.line - 1, character = f.col },
    context = { includeDeclaration = true },
  }
  local t = now()
  local res = vim.lsp.buf_request_sync(bufnr, "textDocument/references", params, 120000)
  local ms = now() - t
  local n, err = 0, ""
  for _, r in pairs(res or {}) do
    if r.error then err = vim.inspect(r.error) end
    if r.result then n = n + #r.result end
  end
  table.insert(out, string.format("%s\t%d\t%.1f\t%s", f.q, n, ms, err))
end
vim.fn.writefile(out, os.getenv("NV_OUT") or "/tmp/nv/refs.out")
vim.lsp.stop_client(client_id)
vim.cmd("qa!")
