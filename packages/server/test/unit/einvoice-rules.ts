// EN 16931 arithmetic business rules over a CII document, written from the rule texts of the
// standard (not the CEN Schematron): returns one message per broken rule, each starting with the
// rule's id. Amounts are compared as exact decimals (BigInt), never as floats.
//   BR-DEC-*     amounts have at most 2 decimals (the unit price BT-146 may have more)
//   line net     BT-131 = BT-129 × BT-146 / BT-149 − Σ BT-136 (quantity × net price / base quantity − line allowances)
//   BR-CO-10     BT-106 = Σ BT-131
//   BR-CO-13     BT-109 = BT-106 − BT-107 + BT-108
//   BR-CO-14     BT-110 = Σ BT-117
//   BR-CO-15     BT-112 = BT-109 + BT-110
//   BR-CO-16     BT-115 = BT-112 − BT-113 + BT-114
//   BR-S-08/Z-08 BT-116 of a category and rate = Σ BT-131 of its lines (no document allowances
//                or charges are produced; their presence is reported)
//   BR-S-09      BT-117 = BT-116 × BT-119 / 100 rounded to 2 decimals (also BR-CO-17 for any
//                category). `exact` demands equality; `schematron` allows what the current CII
//                Schematron of EN 16931 and Factur-X allow: a difference below one currency unit.
//   BR-Z-09      BT-117 = 0 for category Z
export interface RuleOptions {
  vatTolerance: 'exact' | 'schematron';
}

/** A decimal string as [integer, scale]: "12.345" → [12345n, 3]. */
function dec(s: string): [bigint, number] {
  const m = /^\s*(-?)(\d+)(?:\.(\d+))?\s*$/.exec(s);
  if (!m) throw new Error(`not a decimal: ${JSON.stringify(s)}`);
  const frac = m[3] ?? '';
  return [BigInt(`${m[1]}${m[2]}${frac}`), frac.length];
}
const scaleTo = ([v, s]: [bigint, number], to: number) => v * 10n ** BigInt(to - s);
/** Amount in cents; null when it has more than 2 decimals (reported as BR-DEC). */
const cents = (s: string) => {
  const d = dec(s);
  return d[1] > 2 ? null : scaleTo(d, 2);
};

const blocks = (xml: string, tag: string) => [...xml.matchAll(new RegExp(`<ram:${tag}>([\\s\\S]*?)</ram:${tag}>`, 'g'))].map((m) => m[1]!);
const values = (xml: string, tag: string) => [...xml.matchAll(new RegExp(`<ram:${tag}(?:\\s[^>]*)?>([^<]*)</ram:${tag}>`, 'g'))].map((m) => m[1]!);
const value = (xml: string, tag: string) => values(xml, tag)[0];

/** round(a / b) half up (XPath round()), b > 0. */
function divRoundHalfUp(a: bigint, b: bigint): bigint {
  const q = a / b;
  const r = a % b;
  const twice = 2n * (r < 0n ? -r : r);
  if (r >= 0n) return twice >= b ? q + 1n : q;
  return twice > b ? q - 1n : q;
}

export function ciiRuleViolations(xml: string, opts: RuleOptions): string[] {
  const out: string[] = [];
  const amount = (s: string | undefined, what: string): bigint => {
    if (s === undefined) return 0n;
    const c = cents(s);
    if (c === null) {
      out.push(`BR-DEC: ${what} ${s} has more than 2 decimals`);
      return scaleTo(dec(s), 2 + 8) / 10n ** 8n;
    }
    return c;
  };

  const byCategory = new Map<string, bigint>();
  let lineSum = 0n;
  for (const [i, li] of blocks(xml, 'IncludedSupplyChainTradeLineItem').entries()) {
    const net = amount(value(li, 'LineTotalAmount'), `line ${i + 1} BT-131`);
    lineSum += net;
    const tax = blocks(li, 'ApplicableTradeTax')[0] ?? '';
    const key = `${value(tax, 'CategoryCode')}/${Number(value(tax, 'RateApplicablePercent') ?? 0)}`;
    byCategory.set(key, (byCategory.get(key) ?? 0n) + net);
    // quantity × price / base quantity = line net, compared at a common scale.
    const priceBlock = blocks(li, 'NetPriceProductTradePrice')[0] ?? '';
    const price = dec(value(priceBlock, 'ChargeAmount') ?? 'x');
    const base = dec(value(priceBlock, 'BasisQuantity') ?? '1');
    const qty = dec(value(li, 'BilledQuantity') ?? 'x');
    // Line allowances (BG-27: promo codes, vouchers) come off quantity × price.
    const allowances = blocks(li, 'SpecifiedTradeAllowanceCharge').reduce((s, a) => s + amount(value(a, 'ActualAmount'), `line ${i + 1} BT-136`), 0n);
    // (net + allowances)/10² = (qty/10^q × price/10^p) / (base/10^b)  ⇔  (net + a) × base × 10^(q+p) = qty × price × 10^(2+b)
    const lhs = (net + allowances) * base[0] * 10n ** BigInt(qty[1] + price[1]);
    const rhs = qty[0] * price[0] * 10n ** BigInt(2 + base[1]);
    if (lhs !== rhs) out.push(`line net: line ${i + 1} quantity ${value(li, 'BilledQuantity')} × price ${value(priceBlock, 'ChargeAmount')} / ${value(priceBlock, 'BasisQuantity') ?? '1'} ≠ ${value(li, 'LineTotalAmount')}`);
  }

  const settlement = blocks(xml, 'ApplicableHeaderTradeSettlement')[0] ?? '';
  const sum = blocks(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation')[0] ?? '';
  const bt106 = amount(value(sum, 'LineTotalAmount'), 'BT-106');
  const bt107 = amount(value(sum, 'AllowanceTotalAmount'), 'BT-107');
  const bt108 = amount(value(sum, 'ChargeTotalAmount'), 'BT-108');
  const bt109 = amount(value(sum, 'TaxBasisTotalAmount'), 'BT-109');
  const bt110 = amount(value(sum, 'TaxTotalAmount'), 'BT-110');
  const bt112 = amount(value(sum, 'GrandTotalAmount'), 'BT-112');
  const bt113 = amount(value(sum, 'TotalPrepaidAmount'), 'BT-113');
  const bt114 = amount(value(sum, 'RoundingAmount'), 'BT-114');
  const bt115 = amount(value(sum, 'DuePayableAmount'), 'BT-115');
  if (bt106 !== lineSum) out.push(`BR-CO-10: BT-106 ${bt106} ≠ Σ lines ${lineSum} (cents)`);
  if (bt109 !== bt106 - bt107 + bt108) out.push(`BR-CO-13: BT-109 ${bt109} ≠ ${bt106} − ${bt107} + ${bt108}`);
  if (bt112 !== bt109 + bt110) out.push(`BR-CO-15: BT-112 ${bt112} ≠ ${bt109} + ${bt110}`);
  if (bt115 !== bt112 - bt113 + bt114) out.push(`BR-CO-16: BT-115 ${bt115} ≠ ${bt112} − ${bt113} + ${bt114}`);
  if (bt107 !== 0n || bt108 !== 0n) out.push('BR-S-08: document level allowances or charges are present; this checker does not add them per category');

  let vatSum = 0n;
  const seen = new Set<string>();
  for (const tax of blocks(settlement, 'ApplicableTradeTax')) {
    const cat = value(tax, 'CategoryCode') ?? '?';
    const rateStr = value(tax, 'RateApplicablePercent') ?? '0';
    const key = `${cat}/${Number(rateStr)}`;
    seen.add(key);
    const basis = amount(value(tax, 'BasisAmount'), `BT-116 ${key}`);
    const vat = amount(value(tax, 'CalculatedAmount'), `BT-117 ${key}`);
    vatSum += vat;
    if (basis !== (byCategory.get(key) ?? 0n)) out.push(`BR-${cat}-08: BT-116 of ${key} ${basis} ≠ Σ its lines ${byCategory.get(key) ?? 0n}`);
    const rate = dec(rateStr);
    const expected = divRoundHalfUp(basis * rate[0], 100n * 10n ** BigInt(rate[1]));
    const diff = vat > expected ? vat - expected : expected - vat;
    const allowed = opts.vatTolerance === 'exact' ? 0n : 99n;
    if (diff > allowed) out.push(`BR-S-09 (BR-CO-17): BT-117 of ${key} ${vat} ≠ ${basis} × ${rateStr} % = ${expected} (cents)`);
    if (cat === 'Z' && vat !== 0n) out.push(`BR-Z-09: BT-117 of ${key} is ${vat}, not 0`);
  }
  for (const key of byCategory.keys()) if (!seen.has(key)) out.push(`BR-CO-18: lines of ${key} have no VAT breakdown`);
  if (bt110 !== vatSum) out.push(`BR-CO-14: BT-110 ${bt110} ≠ Σ BT-117 ${vatSum}`);
  return out;
}
