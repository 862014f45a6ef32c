// Which questions the series answerer takes: spans of time and past months or years of a rate, but
// none of the evaluation set's questions about current figures, a year's loan limit or an HMDA
// rate, which keep their own answerers; and how a span is read from the words.
import { describe, expect, it } from 'vitest';
import { classifyIntent } from '../../api/ask/builtin/intents.ts';
import { extractEntities } from '../../api/ask/builtin/entities.ts';
import { spanOf } from '../../api/ask/builtin/answer-series.ts';
import { ASK_QUESTIONS } from '../../scripts/eval/ask-questions.ts';

const TODAY = new Date('2026-11-22T12:00:00Z');

describe('series questions', () => {
  it.each([
    'How have mortgage rates moved since 2020?',
    'How much did the conforming limit change since 2018?',
    'What was the 30-year rate in March 2022?',
    'What was the average 15-year rate in 2023?',
    'How have FHA rates changed over the past two years?',
    'How has the mortgage denial rate in Texas changed since 2018?',
    'What is the history of the FHA loan limit floor?',
    'How did rates move between 2019 and 2023?',
  ])('takes "%s"', (question) => {
    expect(classifyIntent(question)).toBe('series');
  });

  it('leaves every question of the evaluation set to its own answerer', () => {
    for (const { question } of ASK_QUESTIONS) expect(classifyIntent(question), question).not.toBe('series');
  });

  it.each([
    ['How have rates moved since 2020?', { kind: 'since', from: '2020-01-01' }],
    ['Rates since March 2021?', { kind: 'since', from: '2021-03-01', label: 'since March 2021' }],
    ['How have rates changed since last year?', { kind: 'since', from: '2025-01-01' }],
    ['How have rates changed over the past five years?', { kind: 'since', from: '2021-11-22', label: 'over the past 5 years' }],
    ['How did rates move between 2019 and 2023?', { kind: 'between', from: '2019-01-01', to: '2023-12-31' }],
    ['What was the 30-year rate in Feb 2024?', { kind: 'month', from: '2024-02-01', to: '2024-02-29' }],
    ['What was the average rate in 2023?', { kind: 'year', from: '2023-01-01', to: '2023-12-31' }],
    ['What is the history of the FHA floor?', { kind: 'all' }],
  ] as const)('reads the span of "%s"', (question, expected) => {
    expect(spanOf(question, extractEntities(question), TODAY)).toMatchObject(expected);
  });
});
