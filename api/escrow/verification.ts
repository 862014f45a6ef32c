// How a county's tax calendar was checked against the collector: the pages read, the tax year they
// cover and the day they were read. One declaration shared by county overrides
// (data/escrow/state-tax-schedules.json) and recorded checks (data/escrow/county-checks.json).
import { z } from 'zod';

/** A tax year as the collector names it: "2024", or a fiscal year "2025-26". */
export const TaxYearSchema = z.string().regex(/^\d{4}(-\d{2})?$/, 'a tax year is "YYYY" or a fiscal year "YYYY-YY"');

export const SourceKindSchema = z.enum([
  'collector', // the treasurer's, tax collector's or tax commissioner's own page or release
  'local-government', // another office of the same county, city or town (assessor, township, city treasury)
  'local-law', // the county or city code that fixes the dates
  'state-law', // the state statute that fixes the dates
  'news-report', // a newspaper or broadcaster reporting the collector's announcement
  'secondary', // a professional or private page restating the dates; never the only source of a check
]);

export const CheckSourceSchema = z.object({
  url: z.url(),
  publisher: z.string().min(3),
  kind: SourceKindSchema,
  /** The tax year the page names, when it names one. */
  taxYear: TaxYearSchema.optional(),
  /** The date the page itself shows (release or update date), when it shows one. */
  pageDate: z.iso.date().optional(),
  /** The page gives the dates as the same every year, without naming a year. */
  standing: z.boolean().optional(),
  /** What the page says about the due dates, in our words. */
  says: z.string().min(10),
});

const CheckedSchema = z.object({
  status: z.literal('checked'),
  /** The day the page was read. */
  checked: z.iso.date(),
  /** Pages were read from a stored copy, not live: their own dates are in `pageDate`. */
  copy: z.literal('stored'),
  /**
   * The tax year the check vouches for: one a source names, or, where the collector's page gives
   * the same dates every year without naming one (`standing`), the year of the check itself.
   */
  taxYear: TaxYearSchema,
  sources: z.array(CheckSourceSchema).min(1),
});

const UncheckedSchema = z.object({
  status: z.literal('unchecked'),
  /** Why no collector's page could be read, in words a reader can use. */
  reason: z.string().min(20),
});

export const VerificationSchema = z.discriminatedUnion('status', [CheckedSchema, UncheckedSchema]);

export type CheckSource = z.infer<typeof CheckSourceSchema>;
export type Verification = z.infer<typeof VerificationSchema>;
export type CheckedVerification = z.infer<typeof CheckedSchema>;

/** Consistency a schema cannot say by shape: the tax year is one a source names; a secondary page never stands alone. */
export function verificationIssues(verification: Verification): string[] {
  if (verification.status !== 'checked') return [];
  const issues: string[] = [];
  const named = verification.sources.some((source) => source.taxYear === verification.taxYear);
  const standingThisYear =
    verification.sources.some((source) => source.standing && source.kind !== 'secondary') &&
    verification.taxYear.startsWith(verification.checked.slice(0, 4));
  if (!named && !standingThisYear) {
    issues.push(`tax year ${verification.taxYear} is neither named by a source nor the check's own year under a standing rule`);
  }
  if (verification.sources.every((source) => source.kind === 'secondary')) {
    issues.push('a check needs at least one source that is not a secondary page');
  }
  return issues;
}

/**
 * The source a reader is pointed to first: one that names the checked tax year, else one that gives
 * the dates as a standing rule; a secondary page only when nothing else names the year.
 */
export function primarySource(verification: CheckedVerification): CheckSource {
  const firsthand = verification.sources.filter((source) => source.kind !== 'secondary');
  return (
    firsthand.find((source) => source.taxYear === verification.taxYear) ??
    firsthand.find((source) => source.standing) ??
    (verification.sources[0] as CheckSource)
  );
}
