// The question reader's pure parts (times, measures read from the catalogue), the analysis arithmetic on small
// series built here, and the /ask model's analyze_data tool over a recording analysis service.
import { describe, expect, it } from 'vitest';
import type { AnalysisAnswer, Operation } from '../../api/analysis/contract.ts';
import { analyzeDataTool } from '../../api/mcp/tools/analyze-data.ts';
import { serviceStub, toolContext } from '../support/contract-tool.ts';
import { askTools } from '../../api/ask/tools.ts';
import { readTimes } from '../../api/ask/builtin/reader/read-times.ts';
import { readMeasures } from '../../api/ask/builtin/reader/read-measure.ts';
import { Coverage, wordsOf } from '../../api/ask/builtin/reader/words.ts';
import { change, crossing, extremes, monthlyPayment, rankTies } from '../../api/analysis/arithmetic.ts';
import { pointAt } from '../../api/analysis/points.ts';
import { largestMove, longestStreak } from '../../api/analysis/moves.ts';
import type { HeldSeries } from '../../api/series/types.ts';

const TODAY = new Date('2026-11-27T12:00:00Z');

function weekly(values: number[]): HeldSeries {
  const dates = values.map((_value, index) => new Date(Date.UTC(2024, 0, 4 + index * 7)).toISOString().slice(0, 10));
  return {
    id: 'test/weekly',
    title: 'Test',
    family: 'pmms',
    publisher: 'Test',
    frequency: 'weekly',
    units: 'percent',
    dates,
    values,
    sourceUrl: 'https://example.org',
    sourceName: 'Test',
    asOf: dates.at(-1) ?? null,
    notes: [],
  };
}

const timesOf = (question: string) => readTimes(question, new Coverage(wordsOf(question)), TODAY);
const measuresOf = (question: string) => readMeasures(new Coverage(wordsOf(question)), {}, []).measures.map((measure) => measure.template);

describe('question reader: times', () => {
  it('reads days, months, quarters, years and the start of a year, in order', () => {
    const { times } = timesOf('From the start of 2022 to 2025Q3, and on December 26, 2024, and in May 2026?');
    expect(times.map((time) => [time.grain, time.from])).toEqual([
      ['day', '2022-01-01'],
      ['quarter', '2025-07-01'],
      ['day', '2024-12-26'],
      ['month', '2026-05-01'],
    ]);
  });

  it('reads a Fed meeting named by month, and whether the week of it is asked', () => {
    const [meeting] = timesOf('What was the 30-year rate in the week of the December 2024 Fed meeting?').times;
    expect(meeting?.fedMeeting).toEqual({ year: 2024, month: 12, week: true });
  });

  it('reads "since" as a span to the latest, two times as a range, relative times against today', () => {
    expect(timesOf('How much has it risen since 2019?')).toMatchObject({ relation: 'since', times: [{ from: '2019-01-01' }] });
    expect(timesOf('How much did it change from 2020 to 2025?')).toMatchObject({
      relation: 'range',
      times: [{ from: '2020-01-01' }, { from: '2025-01-01' }],
    });
    // "Two years ago" is the day two years before today; a yearly figure answers it with the year holding it.
    expect(timesOf('What was the limit two years ago?').times[0]).toMatchObject({ grain: 'day' });
    expect(timesOf('What was the limit two years ago?').times[0]?.from.slice(0, 4)).toBe('2024');
    expect(timesOf('How many loans were made last year?').times[0]).toMatchObject({ grain: 'year', from: '2025-01-01' });
    expect(timesOf('How did rates move this past summer?').times[0]).toMatchObject({
      grain: 'season',
      from: '2026-06-01',
      to: '2026-08-31',
    });
    expect(timesOf('What was the 30-year average in Q3 2026 vs Q2?').times.map((time) => time.from)).toEqual(['2026-07-01', '2026-04-01']);
  });
});

describe('question reader: measures from the catalogue', () => {
  it('tells rates on outstanding mortgages, limits and HMDA apart', () => {
    expect(measuresOf('What is the average interest rate on existing mortgages?')[0]).toBe('nmdb/{state}/ave_intrate');
    expect(measuresOf('What was the denial rate in 2024?')[0]).toBe('hmda/{place}/denial_rate');
    expect(measuresOf('How many home loans were originated?')[0]).toBe('hmda/{place}/originations');
  });

  it('names every rate series a comparison mentions, survey or benchmark', () => {
    expect(measuresOf('the spread between the 30-year and 15-year fixed rates')).toEqual(['pmms/30-year', 'pmms/15-year']);
  });
});

describe('analysis arithmetic', () => {
  it('finds the largest step up and the longest run of steps down, a step into the range counted from the one before', () => {
    const series = weekly([5, 5.2, 5.1, 5.6, 5.5, 5.4, 5.3, 5.35]);
    const range = { start: series.dates[1] as string, end: series.dates.at(-1) as string, label: 'test', kind: 'range' as const };
    expect(largestMove(series, range, 'up').largest).toMatchObject({ change: 0.5, to: { date: series.dates[3] } });
    expect(longestStreak(series, range, 'down')).toMatchObject({ length: 3, start: { value: 5.6 }, end: { value: 5.3 } });
    // The step into the first week of the range is counted from the week before it.
    expect(largestMove(series, { ...range, end: series.dates[1] as string }, 'up').largest).toMatchObject({ change: 0.2 });
  });

  it('keeps ties in ranks, and every place tied with the last one shown', () => {
    const ranked = rankTies([{ value: 5 }, { value: 9 }, { value: 9 }, { value: 7 }, { value: 7 }], 'highest', 3);
    expect(ranked.map((entry) => [entry.rank, entry.value])).toEqual([
      [1, 9],
      [1, 9],
      [3, 7],
      [3, 7],
    ]);
  });

  it('computes the monthly payment by the annuity formula (and principal ÷ months at 0%)', () => {
    // $200,000 at 6% over 30 years: the textbook $1,199.10.
    expect(monthlyPayment(200_000, 6, 30).monthly_payment).toBe(1199.1);
    expect(monthlyPayment(120_000, 0, 10).monthly_payment).toBe(1000);
  });

  it('finds the last run below a level, its start, and whether the latest observation is in it', () => {
    const series = weekly([7, 6.5, 5.9, 5.8, 6.2, 5.7]);
    const span = { start: '2024-01-01', end: '2024-12-31', label: '2024', kind: 'year' as const };
    const found = crossing(series, span, { op: 'below', threshold: 6 }, 'last');
    expect(found.found?.value).toBe(5.7);
    expect(found.meets_now).toBe(true);
    expect(crossing(series, span, { op: 'below', threshold: 6 }, 'first').run_start?.value).toBe(5.9);
    expect(extremes(series, span)).toMatchObject({ low: 5.7, high: 7, observations: 6 });
    expect(change(4, 5)).toEqual({ change: 1, percent_change: 25 });
  });

  it("takes a period of a finer series as its mean, and a day without an observation as its week's survey", () => {
    const series = weekly([6, 7, 8, 9, 10]);
    expect(pointAt(series, '2024-01')).toMatchObject({ value: 7.5, count: 4, how: 'mean' });
    // Saturday and Tuesday: the survey of the Monday-to-Sunday week holding each (Thursday's).
    expect(pointAt(series, '2024-01-13')).toMatchObject({ value: 7, date: '2024-01-11', how: 'same_week' });
    expect(pointAt(series, '2024-01-09')).toMatchObject({ value: 7, date: '2024-01-11', how: 'same_week' });
    // After the last survey's week: the latest one before.
    expect(pointAt(series, '2024-03-20')).toMatchObject({ value: 10, how: 'on_or_before' });
    expect(pointAt(series, 'latest')).toMatchObject({ value: 10, how: 'observation' });
  });
});

describe('analyze_data, the /ask model tool', () => {
  const tool = askTools().find((candidate) => candidate.name === 'analyze_data');

  it('is offered to the model with the operations as an enum', () => {
    expect(tool).toBeDefined();
    const operation = (tool?.parameters.properties as Record<string, { enum?: string[] }>).operation;
    expect(operation?.enum).toEqual([
      'value',
      'change',
      'compare',
      'share',
      'rank',
      'count',
      'crossing',
      'extremes',
      'per-resident',
      'payment',
      'moves',
      'streak',
    ]);
  });

  it('runs the operation with the parameters given, and refuses a parameter the operation does not take', async () => {
    const calls: unknown[] = [];
    const answer: AnalysisAnswer<'count'> = {
      operation: 'count',
      answer: '17 of 52',
      method: 'counted',
      result: { count: 17, out_of: 52, condition: 'above 7', threshold: 7, first: null, last: null },
      inputs: [],
      notes: [],
      sources: [{ url: 'https://example.org', as_of: '2026-10-08' }],
      dataset_versions: [],
    };
    const analysis = serviceStub('analysis', {
      run: async <O extends Operation>(operation: O, query: unknown) => {
        calls.push([operation, query]);
        return answer as AnalysisAnswer<O>;
      },
    });
    // /ask runs a tool as the MCP server does (AskTool.run is the tool's invoke), here with its one service.
    const context = toolContext(analyzeDataTool, { analysis });
    const result = await analyzeDataTool.invoke(
      { operation: 'count', series: 'pmms/30-year', from: '2023', to: '2023', above: '7' },
      context,
    );
    expect(calls).toEqual([['count', { series: 'pmms/30-year', from: '2023', to: '2023', above: '7' }]]);
    expect(result.text).toMatch(/17 of 52/);
    await expect(analyzeDataTool.invoke({ operation: 'payment', amount: 1000, state: 'CO' }, context)).rejects.toThrow(
      /does not take 'state' \(taken by rank, count\)/,
    );
  });
});
