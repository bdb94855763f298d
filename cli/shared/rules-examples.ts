/**
 * The shell steps that make diagnosed failures and a rule index in an empty folder, before an
 * example of `rules cover` or `rules cluster` (the same data both examples need).
 */
export const COVER_SETUP: readonly string[] = [
  "errata datasets copy synthetic && errata v4 detect --exchanges datasets/synthetic/exchanges.jsonl --limit 80 &&",
  "errata v4 diagnose --exchanges datasets/synthetic/exchanges.jsonl &&",
  "errata rules build --root datasets/synthetic/projects/invoice-api --project /home/dev/projects/invoice-api --no-home &&",
];

/** The steps that make clusters in an empty folder, before an example of `rules recommend`. */
export const RECOMMEND_SETUP: readonly string[] = [
  ...COVER_SETUP,
  "errata rules cover --exchanges datasets/synthetic/exchanges.jsonl && errata rules cluster --exchanges datasets/synthetic/exchanges.jsonl &&",
];
