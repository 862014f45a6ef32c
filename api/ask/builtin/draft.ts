// What a composer returns: the answer text and the sources it rests on. Helpers for the phrasing
// every composer shares (figures with as-of dates, money, percents).
import type { Config } from '../../config.ts';
import type { Clock } from '../../platform/clock.ts';
import type { UsesServices } from '../../domain-services.ts';
import type { Entities } from './entities.ts';
import type { DatasetVersion } from '../../platform/contract/versions.ts';
import { longDate } from '../../platform/dates.ts';

/** What the built-in answerer's composers read: links are built on the base URL, dates from the clock. */
export type BuiltinDeps = { config: Pick<Config, 'baseUrl'>; clock: Clock } & UsesServices<
  'analysis' | 'bills' | 'calendar' | 'escrow' | 'glossary' | 'hmdaAggregates' | 'loanLimits' | 'rates' | 'research' | 'search' | 'series'
>;

export interface AnswerDraft {
  text: string;
  sources: string[];
  /** The dataset versions the figures were read from (cited beside the sources). */
  versions?: readonly DatasetVersion[];
}

export interface ComposerInput {
  question: string;
  entities: Entities;
  deps: BuiltinDeps;
}

export type Composer = (input: ComposerInput) => Promise<AnswerDraft>;

export const formatMoney = (value: number): string => `$${Math.round(value).toLocaleString('en-US')}`;
export const formatPercent = (value: number, digits = 2): string => `${value.toFixed(digits)}%`;

/** "as of 2026-10-08" → "as of October 8, 2026": dates the way a reader says them. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return 'an unknown date';
  const day = iso.slice(0, 10);
  return Number.isNaN(Date.parse(`${day}T00:00:00Z`)) ? iso : longDate(day);
}

export const NOT_ADVICE = 'This is general information from public data, not personalised financial advice.';
