/**
 * The made-up projects synthetic sessions work on: enough detail (files, commands, a bug, a
 * package manager rule) for replies and tool calls to read like real coding work.
 */
export interface Project {
  name: string;
  lang: string;
  /** Folder name under a fake home: the session's cwd is `/home/dev/projects/<name>`. */
  main: string;
  second: string;
  test: string;
  config: string;
  fn: string;
  otherFn: string;
  testCmd: string;
  buildCmd: string;
  /** The package manager a standing rule requires, and the one a careless reply uses. */
  pm: string;
  wrongPm: string;
  addPkg: (pkg: string) => string;
  wrongAddPkg: (pkg: string) => string;
  pkg: string;
  fakeApi: string;
  realApi: string;
  bug: string;
  feature: string;
  failingTest: string;
  errorLine: string;
  branch: string;
}

export const PROJECTS: readonly Project[] = [
  {
    name: "invoice-api",
    lang: "TypeScript",
    main: "src/invoice.ts",
    second: "src/routes/invoices.ts",
    test: "test/invoice.test.ts",
    config: "tsconfig.json",
    fn: "computeTotal",
    otherFn: "formatCurrency",
    testCmd: "pnpm test",
    buildCmd: "pnpm build",
    pm: "pnpm",
    wrongPm: "npm",
    addPkg: (p) => `pnpm add ${p}`,
    wrongAddPkg: (p) => `npm install ${p}`,
    pkg: "decimal.js",
    fakeApi: "Decimal.roundHalfEvenSafe()",
    realApi: "Decimal.toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN)",
    bug: "totals are off by one cent when a discount applies",
    feature: "a CSV export of invoices",
    failingTest: "computeTotal > applies the discount before tax",
    errorLine: "AssertionError: expected 1259.99 to be 1260",
    branch: "fix/discount-rounding",
  },
  {
    name: "weather-cli",
    lang: "Python",
    main: "weather/api.py",
    second: "weather/cli.py",
    test: "tests/test_api.py",
    config: "pyproject.toml",
    fn: "fetch_forecast",
    otherFn: "parse_units",
    testCmd: "uv run pytest -q",
    buildCmd: "uv build",
    pm: "uv",
    wrongPm: "pip",
    addPkg: (p) => `uv add ${p}`,
    wrongAddPkg: (p) => `pip install ${p}`,
    pkg: "httpx",
    fakeApi: "httpx.get_with_retry()",
    realApi: "httpx.Client(transport=httpx.HTTPTransport(retries=3))",
    bug: "the forecast shows Kelvin when --units metric is given",
    feature: "a --days option for multi-day forecasts",
    failingTest: "test_fetch_forecast_metric",
    errorLine: "assert 291.4 == 18.25",
    branch: "fix/units",
  },
  {
    name: "shop-frontend",
    lang: "TypeScript (React)",
    main: "src/components/Cart.tsx",
    second: "src/hooks/useCart.ts",
    test: "src/components/Cart.test.tsx",
    config: "vite.config.ts",
    fn: "useCart",
    otherFn: "CartSummary",
    testCmd: "npm test -- --run",
    buildCmd: "npm run build",
    pm: "npm",
    wrongPm: "yarn",
    addPkg: (p) => `npm install ${p}`,
    wrongAddPkg: (p) => `yarn add ${p}`,
    pkg: "zustand",
    fakeApi: "React.useStableCallback()",
    realApi: "useCallback with a ref",
    bug: "the cart badge does not update after removing an item",
    feature: "a quantity stepper in the cart",
    failingTest: "Cart > updates the badge after removal",
    errorLine: "expected '3' to equal '2'",
    branch: "fix/cart-badge",
  },
  {
    name: "log-pipeline",
    lang: "Go",
    main: "internal/parser/parser.go",
    second: "cmd/ingest/main.go",
    test: "internal/parser/parser_test.go",
    config: "go.mod",
    fn: "ParseLine",
    otherFn: "flushBatch",
    testCmd: "go test ./...",
    buildCmd: "go build ./...",
    pm: "go modules",
    wrongPm: "a vendored copy",
    addPkg: (p) => `go get ${p}`,
    wrongAddPkg: (p) => `cp -r ~/go/pkg/mod/${p} vendor/`,
    pkg: "github.com/klauspost/compress",
    fakeApi: "bufio.Scanner.SetMaxLineLength()",
    realApi: "bufio.Scanner.Buffer(buf, 1<<20)",
    bug: "lines longer than 64 KB are silently dropped",
    feature: "gzip input support",
    failingTest: "TestParseLine/long_line",
    errorLine: "parser_test.go:88: got 0 records, want 1",
    branch: "fix/long-lines",
  },
  {
    name: "blog-engine",
    lang: "Rust",
    main: "src/render.rs",
    second: "src/main.rs",
    test: "tests/render.rs",
    config: "Cargo.toml",
    fn: "render_post",
    otherFn: "slugify",
    testCmd: "cargo test",
    buildCmd: "cargo build --release",
    pm: "cargo",
    wrongPm: "a git dependency",
    addPkg: (p) => `cargo add ${p}`,
    wrongAddPkg: (p) => `echo '${p} = { git = "https://github.com/x/${p}" }' >> Cargo.toml`,
    pkg: "pulldown-cmark",
    fakeApi: "pulldown_cmark::render_safe()",
    realApi: "pulldown_cmark::html::push_html",
    bug: "code blocks lose their language class",
    feature: "an RSS feed",
    failingTest: "render::code_block_keeps_language",
    errorLine: "assertion failed: html.contains(\"language-rust\")",
    branch: "fix/code-lang",
  },
  {
    name: "sales-report",
    lang: "Python (pandas)",
    main: "report/clean.py",
    second: "report/build.py",
    test: "tests/test_clean.py",
    config: "requirements.txt",
    fn: "clean_orders",
    otherFn: "monthly_totals",
    testCmd: "pytest -q",
    buildCmd: "python -m report.build",
    pm: "requirements.txt",
    wrongPm: "a global pip install",
    addPkg: (p) => `echo ${p} >> requirements.txt && pip install -r requirements.txt`,
    wrongAddPkg: (p) => `sudo pip install ${p}`,
    pkg: "pyarrow",
    fakeApi: "DataFrame.smart_merge()",
    realApi: "DataFrame.merge(how='outer')",
    bug: "refunds are counted twice in the monthly totals",
    feature: "a per-region breakdown",
    failingTest: "test_clean_orders_refunds",
    errorLine: "assert 2 == 1 (refund rows)",
    branch: "fix/refunds",
  },
];
