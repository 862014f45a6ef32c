// The built-in reader's frames: for every question of the project's sets and of the shared
// development set (when ../shared/eval is present), prints the slots read and the parts refused, and
// checks the cases issue 43 lists: each is read as asked, or its unanswerable part is refused. The
// gazetteer reads the Census county list of the source folder (skipped with a note when absent).
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { readCensusCounties } from '../../api/escrow/counties.ts';
import { readFrame } from '../../api/ask/builtin/reader/read-frame.ts';
import { frameLine } from '../../api/ask/builtin/reader/frame-line.ts';
import { planSteps } from '../../api/ask/builtin/reader/plan-frame.ts';
import { calendarAsks } from '../../api/ask/builtin/reader/plan-calendar.ts';
import { sameNameText } from '../../api/ask/builtin/reader/honour.ts';
import { independentParts } from '../../api/ask/builtin/independent-parts.ts';
import { hmdaCodeAsked } from '../../api/ask/builtin/answer-hmda-code.ts';
import { ASK_QUESTIONS } from '../../scripts/eval/ask-questions.ts';
import { MULTI_QUESTIONS } from '../../scripts/eval/multi-questions.ts';
import { loadDevSet } from '../../scripts/eval/dev-set.ts';
import { PROJECT_ROOT } from '../../api/config.ts';

const TODAY = new Date('2026-12-07T12:00:00Z');
const sourceDir = process.env.MDS_SOURCE_DIR ?? path.resolve(PROJECT_ROOT, '..', 'shared', 'data');
const census = readCensusCounties(sourceDir);

const counties = async (state: string) =>
  (census?.get(state) ?? []).map((county) => ({
    ...county,
    state,
    stateFips: county.fips.slice(0, 2),
    matchKey: '',
    kind: 'county' as const,
    note: null,
  }));
const context = {
  deps: { services: { loanLimits: { counties } } } as never,
  populations: new Map<string, number>(),
  today: TODAY,
};

const read = async (question: string) => (await readFrame(question, context)).frame;

describe.skipIf(!census)('the reader reads each question slot by slot', () => {
  it('prints the frame of every question of every set', async () => {
    const dev = loadDevSet();
    const sets: [string, string[]][] = [
      ['single', ASK_QUESTIONS.map((question) => question.question)],
      ['multi', MULTI_QUESTIONS.map((question) => question.question)],
      ['ask-dev', 'questions' in dev ? dev.questions.map((question) => question.q) : []],
    ];
    if ('absent' in dev) process.stdout.write(`ask-dev frames skipped: ${dev.absent}\n`);
    for (const [name, questions] of sets)
      for (const [index, question] of questions.entries()) {
        const frame = await read(question);
        process.stdout.write(`[${name} ${index + 1}] ${question}\n    ${frameLine(frame)}\n`);
        // Every content word is consumed by a slot or reported as unread.
        expect(frame.unread.every((word) => question.includes(word))).toBe(true);
      }
  }, 120_000);
});

describe.skipIf(!census)("issue 43's cases: read as asked, or refused first", () => {
  it('reads a 3-unit limit as three units and two years as a change', async () => {
    const frame = await read(
      'By how much did the conforming loan limit for a 3-unit property in Davidson County, Tennessee go up between 2022 and 2026?',
    );
    expect(frame.qualifiers.units).toBe(3);
    expect(frame.places).toMatchObject([{ kind: 'county', fips: '47037' }]);
    expect(frame.times.map((time) => time.from.slice(0, 4))).toEqual(['2022', '2026']);
    expect(frame.operation.kind).toBe('change');
  });

  it('refuses a lender, a census tract and a ZIP code before anything else', async () => {
    const lender = await read('How many home loans did Rocket Mortgage originate in Wayne County, Michigan in 2024?');
    expect(lender.qualifiers.lender).toBe('Rocket Mortgage');
    expect(lender.refusals[0]).toMatchObject({ blocking: true });
    const tract = await read('What was the mortgage denial rate in census tract 4112.00 in Harris County, Texas?');
    expect(tract.qualifiers.tract).toBe('4112.00');
    expect(tract.refusals[0]).toMatchObject({ blocking: true });
    const zip = await read('How many mortgage applications were filed in ZIP code 30305 (Buckhead, Atlanta) in 2024?');
    expect(zip.refusals[0]).toMatchObject({ blocking: true });
  });

  it('reads both years of "the 2026 and 2027 limits"', async () => {
    const frame = await read('What are the 2026 and 2027 conforming loan limits for Rockingham County, New Hampshire?');
    expect(frame.times.map((time) => time.from.slice(0, 4))).toEqual(['2026', '2027']);
  });

  it('reads shares and places counted as such, not as averages or national figures', async () => {
    const share = await read('What share of outstanding mortgages in Arizona carried a rate of 6% or more in the latest quarter?');
    expect(share.measures[0]?.template).toBe('nmdb/{state}/pct_intrate_ge_6');
    const rank = await read('Which state had the highest share of denied applications in 2025?');
    expect(rank.placeSet?.among).toBe('states');
    // A share of denials (the catalogue's denials_share, or the denial rate), never a count.
    expect(rank.measures[0]?.template).toMatch(/^hmda\/\{place\}\/(denials_share|denial_rate)$/);
    const count = await read('In how many states did originations go up from 2023 to 2024?');
    expect(count.placeSet?.among).toBe('states');
  });

  it('refuses a negative rate, absurd magnitudes, a zero term and more states than exist', async () => {
    expect((await read('What is the monthly payment on $400,000 at -5% for 30 years?')).refusals.map((refusal) => refusal.part)).toEqual([
      'a rate of -5%',
    ]);
    const absurd = await read('Monthly payment on $1e308 at 1000000% for 100000 years?');
    expect(absurd.refusals.map((refusal) => refusal.part)).toHaveLength(3);
    expect((await read('Monthly payment on $200,000 at 0% for 0 years?')).refusals.map((refusal) => refusal.part)).toEqual([
      'a term of 0 years',
    ]);
    expect((await read('What are the top 100000 states by originations in 2024?')).refusals[0]?.part).toBe('the top 100,000 states');
  });

  it('refuses a 20-year fixed rate rather than giving another with a state nobody named', async () => {
    const frame = await read("What's the current 20-year fixed rate?");
    expect(frame.places).toEqual([]);
    expect(frame.refusals[0]).toMatchObject({ part: 'a 20-year fixed rate', blocking: true });
  });
});

describe.skipIf(!census)('phrasings the reader generalises to: read as asked, or refused first', () => {
  it('refuses a place it does not know before anything else, and reads residents as their state', async () => {
    const mars = await read('What is the population of Mars?');
    expect(mars.refusals[0]).toMatchObject({ part: 'figures for Mars', blocking: true });
    const toronto = await read('What is the FHA loan limit in Toronto?');
    expect(toronto.refusals[0]).toMatchObject({ part: 'figures for Toronto', blocking: true });
    const texans = await read('How many mortgages did Texans take out in 2024?');
    expect(texans.places).toMatchObject([{ kind: 'state', code: 'TX' }]);
    expect(texans.measures[0]?.template).toBe('hmda/{place}/originations');
  });

  it('reads relative years, halves, seasons and "fall" the verb', async () => {
    const beforeLast = await read('What was the average 30-year fixed rate the year before last?');
    expect(beforeLast.times.map((time) => time.from)).toEqual(['2024-01-01']);
    const half = await read('What was the average 30-year rate in the first half of 2024?');
    expect(half.times).toMatchObject([{ from: '2024-01-01', to: '2024-06-30' }]);
    const summer = await read('What was the average 30-year rate this past summer?');
    expect(summer.times).toMatchObject([{ from: '2026-06-01', to: '2026-08-31' }]);
    const verb = await read('When did the 30-year rate last fall below 6%?');
    expect(verb.times).toEqual([]);
    expect(verb.operation.kind).toBe('crossing');
  });

  it('sets every place side by side ("vs", "stack up against") and reads "top 7%" as a threshold', async () => {
    const three = await read('Denial rate in Texas vs Florida vs Georgia in 2024?');
    expect(three.operation.kind).toBe('compare');
    expect(three.places.map((place) => (place.kind === 'state' ? place.code : ''))).toEqual(['TX', 'FL', 'GA']);
    const against = await read('How did the 30-year rate in 2024 stack up against 2023?');
    expect(against.operation.kind).toBe('compare');
    expect(against.unread).toEqual([]);
    const top = await read('How many times did the 30-year rate top 7% in 2024?');
    expect(top.numbers.topN).toBeUndefined();
    expect(top.numbers.threshold).toMatchObject({ op: 'above', value: 7 });
    expect(top.operation.kind).toBe('count');
  });

  it('refuses a payment with no amount, a lender named as people do, and a rate within a loan type', async () => {
    expect((await read("What's the monthly payment on banana at 6%?")).refusals[0]).toMatchObject({ blocking: true });
    expect((await read('monthly payment for 400000 at 6 percent for 15 years')).numbers.amount).toBe(400_000);
    expect((await read('What is the monthly payment on a $350k loan at 7%?')).numbers.amount).toBe(350_000);
    const lender = await read('How many mortgage applications did Bank of America receive in 2024?');
    expect(lender.qualifiers.lender).toBe('Bank of America');
    expect(lender.refusals[0]).toMatchObject({ blocking: true });
    const fha = await read('What was the denial rate for FHA loans in Georgia in 2024?');
    expect(fha.refusals[0]).toMatchObject({ blocking: true });
    expect(fha.refusals[0]?.part).toMatch(/denial rate for FHA loan/);
  });

  it('reads two parts of one whole as two measures, never one as a share of the other', async () => {
    const refis = await read('Nationally, what share of 2021 HMDA records were refinances, counting cash-out refis too?');
    expect(refis.qualifiers.purposesAll).toEqual(['refinance', 'cash-out refinance']);
    expect(refis.measures.map((measure) => measure.template).sort()).toEqual([
      'hmda/{place}/cash_out_refinance_share',
      'hmda/{place}/refinance_share',
    ]);
    const programs = await read("What share of Texas's 2023 HMDA records were FHA or VA loans?");
    expect(programs.measures.every((measure) => measure.share?.whole === 'hmda/{place}/records')).toBe(true);
  });

  it('counts places at a level and ranks states by their counties that meet it', async () => {
    const at = await read('How many counties were at the FHA ceiling for a single-family home in 2025?');
    expect(at.numbers.threshold).toMatchObject({ op: 'equal', value: 'loan-limits/fha/ceiling' });
    expect(at.measures[0]?.template).toBe('loan-limits/fha/{county}');
    const byState = await read('Which three states have the most counties with a 2026 conforming loan limit above the baseline?');
    expect(byState.placeSet).toMatchObject({ among: 'counties', by: 'state' });
    expect(byState.measures[0]?.template).toBe('loan-limits/conforming/{county}');
  });
});

describe.skipIf(!census)('classes of phrasing: each read as the question it is', () => {
  it('reads a date named with a survey as the survey, not the calendar', async () => {
    const released = await read('Which 15-year fixed rate did the survey released on August 7, 2025 show?');
    expect(released.topic).not.toBe('calendar');
    expect(released.measures[0]?.template).toBe('pmms/15-year');
    expect(released.times[0]).toMatchObject({ grain: 'day', from: '2025-08-07' });
  });

  it('reads the biggest move one way, or either way when no way is named', async () => {
    const fall = await read('When was the sharpest one-week fall in the 15-year rate in 2023?');
    expect(fall.operation).toMatchObject({ kind: 'biggest-move', step: 'down' });
    expect(fall.times.map((time) => time.grain)).toEqual(['year']);
    const rise = await read('What was the steepest weekly climb in the 30-year rate in 2021?');
    expect(rise.operation).toMatchObject({ kind: 'biggest-move', step: 'up' });
    const either = await read('What was the largest weekly swing in the 30-year rate during 2020?');
    expect(either.operation).toMatchObject({ kind: 'biggest-move', step: 'either' });
  });

  it('reads "year to date" and "since the first survey of" a period as since', async () => {
    const ytd = await read('What is the 15-year rate change year-to-date?');
    expect(ytd.operation.kind).toBe('change');
    expect(ytd.timeRelation).toBe('since');
    expect(ytd.times[0]).toMatchObject({ grain: 'year', from: '2026-01-01' });
    const first = await read('How much has the 30-year rate moved since the first weekly survey of 2024?');
    expect(first.timeRelation).toBe('since');
  });

  it('reads "a year ago" and "18 months ago" as days counted from today', async () => {
    expect((await read('What was the 15-year fixed rate one year ago?')).times[0]).toMatchObject({ grain: 'day', from: '2025-12-07' });
    expect((await read('Where was the 30-year rate 18 months ago?')).times[0]).toMatchObject({ grain: 'day', from: '2025-06-07' });
  });

  it('sets two named places side by side after "which county", never ranking all', async () => {
    const frame = await read('Which county had fewer denied applications in 2022, Wayne County, Michigan or Cuyahoga County, Ohio?');
    expect(frame.operation.kind).toBe('compare');
    expect(frame.places.map((place) => (place.kind === 'county' ? place.fips : ''))).toEqual(['26163', '39035']);
  });

  it('reads one past period asked on its own as a change within it, first figure to last', async () => {
    for (const question of [
      'What was the change in the 15-year fixed rate over 2021?',
      'How far did the 30-year rate fall in the second quarter of 2024?',
      'How much did the 30-year mortgage rate go up in March 2023?',
    ]) {
      const frame = await read(question);
      expect(frame.timeRelation).toBe('within');
      const [step] = planSteps(frame).steps;
      expect(step?.operation).toBe('change');
      expect(step?.query).toMatchObject({ from_first: true, to_last: true });
      expect(step?.query.to).toBe(step?.query.from);
    }
    // "from 2023" is a start, and "since" runs to today: neither ends within the period.
    expect((await read('How has the 30-year rate changed from 2023?')).timeRelation).toBe('each');
    const since = planSteps(await read('How much has the 15-year rate moved since Q1 2025?')).steps[0];
    expect(since?.query.to_last).toBeUndefined();
  });

  it('says which states share a county name given with no state, never picking one in silence', async () => {
    const clay = await read('What was the denial rate in Clay County in 2023?');
    const county = clay.places[0];
    expect(county?.kind === 'county' && county.sameNameStates?.length).toBeGreaterThan(10);
    expect(sameNameText(clay)).toMatch(/^Clay County is the name of counties in \d+ states/);
    // A state given, or a name only one state has, needs no such sentence.
    expect(sameNameText(await read('What was the denial rate in Clay County, Missouri in 2023?'))).toBeUndefined();
    expect(sameNameText(await read('How many loans were originated in Maricopa County in 2024?'))).toBeUndefined();
    // A state's name that is the county's own is the county, not the state.
    const lincoln = await read('Compare Iowa County with Texas County on originations in 2024.');
    expect(lincoln.places.map((place) => place.kind)).toEqual(['county', 'county']);
    // "Which Ohio county": Ohio's counties, not the state of an Ohio County elsewhere.
    const set = await read('Which Ohio county had the most denials in 2022?');
    expect(set.placeSet).toMatchObject({ among: 'counties', state: 'OH' });
  });

  it('prints the frames of the class questions', async () => {
    const classes = loadDevSet('ask-classes.json', path.join(PROJECT_ROOT, 'scripts', 'eval'));
    for (const question of 'questions' in classes ? classes.questions : []) {
      const frame = await read(question.q);
      process.stdout.write(`[classes ${question.n}] ${question.q}\n    ${frameLine(frame)}\n`);
      expect(frame.unread.every((word) => question.q.includes(word))).toBe(true);
    }
  });
});

describe.skipIf(!census)('shares, counts, codes, premises and several places, read as asked', () => {
  it('reads a share written in words as a percent threshold on the count’s share, never a calendar quarter', async () => {
    const half = await read('Which counties in Ohio had more than half of their records for home purchase in 2023?');
    expect(half.numbers.threshold).toMatchObject({ op: 'above', value: 50, percent: true });
    expect(half.measures.map((measure) => measure.template)).toEqual(['hmda/{place}/purchase_share']);
    expect(half.operation).toMatchObject({ kind: 'count', names: true });
    const quarter = await read('In how many Arizona counties were at least three quarters of records conventional loans in 2022?');
    expect(quarter.numbers.threshold).toMatchObject({ op: 'above', value: 75 });
    expect(quarter.times.map((time) => time.grain)).toEqual(['year']);
    const third = await read('How many states had less than a third of applications denied in 2021?');
    expect(third.numbers.threshold?.op).toBe('below');
    expect(third.numbers.threshold?.value).toBeCloseTo(33.333, 2);
    expect(third.measures[0]?.template).toBe('hmda/{place}/denial_rate');
    // A percent written as a number on a count is a share too.
    expect((await read('How many Kansas counties had VA loans above 10% of records in 2024?')).measures[0]?.template).toBe(
      'hmda/{place}/va_share',
    );
  });

  it('asks for the places counted when the question says "and which ones" or "name them"', async () => {
    expect((await read('How many states had a denial rate above 20% in 2024, and which ones?')).operation).toMatchObject({
      kind: 'count',
      names: true,
    });
    expect((await read('Count the Iowa counties with FHA loans over 15% of records in 2023 and list them.')).operation.names).toBe(true);
    expect((await read('How many states had a denial rate above 20% in 2024?')).operation.names).toBeUndefined();
  });

  it('divides a program within another field’s code by all records, saying first the crossing is not held', async () => {
    const plan = planSteps(await read('What percent of refinance records in Michigan were VA loans in 2022?'));
    expect(plan.refusals.map((refusal) => refusal.part)).toEqual([
      'the share of refinancing records (not cash-out) that are VA loan records',
    ]);
    expect(plan.refusals[0]?.blocking).toBe(false);
    expect(plan.steps[0]).toMatchObject({
      operation: 'share',
      query: { part: 'hmda/MI/va_records', whole: 'hmda/MI/records', at: '2022' },
    });
    // "X as a share of Y": the part written first.
    const va = planSteps(await read('How many VA loans were made in Georgia in 2023 as a share of all originations?'));
    expect(va.steps[0]?.query).toMatchObject({ part: 'hmda/GA/va_records', whole: 'hmda/GA/records' });
    // The program read as a qualifier only, beside a purpose's measure, is crossed the same way.
    const fha = planSteps(await read('What percent of cash-out refinance records in Arizona were FHA in 2021?'));
    expect(fha.steps[0]).toMatchObject({ operation: 'share', query: { part: 'hmda/AZ/fha_records', whole: 'hmda/AZ/records' } });
  });

  it('reads each place of a list: one county name in several states, names before "counties"', async () => {
    const douglas = await read('Compare the 2026 conforming limits of Douglas County in Colorado, Nebraska and Oregon.');
    expect(douglas.places.map((place) => (place.kind === 'county' ? place.state : place.kind))).toEqual(['CO', 'NE', 'OR']);
    expect(douglas.refusals).toEqual([]);
    const metro = await read('How many loans were originated in Dallas, Tarrant and Collin counties in 2023?');
    expect(metro.places.map((place) => (place.kind === 'county' ? place.fips : place.kind))).toEqual(['48113', '48439', '48085']);
    expect(metro.placeSet).toBeUndefined();
  });

  it('reads two codes of one HMDA field as a count each, and refuses a field the aggregates do not count', async () => {
    const types = await read('How many records in Iowa had loan type 3 and 4 in 2021?');
    expect(types.measures.map((measure) => measure.template)).toEqual(['hmda/{place}/va_records', 'hmda/{place}/usda_records']);
    const liens = await read('Nebraska in 2020: lien status 1 vs 2?');
    expect(liens.measures.map((measure) => measure.template)).toEqual([
      'hmda/{place}/first_lien_records',
      'hmda/{place}/subordinate_lien_records',
    ]);
    const reasons = await read('How many Ohio applications were turned down for reason codes 3 and 7 in 2022?');
    expect(reasons.refusals.some((refusal) => refusal.part.includes('reason codes 3 and 7') && refusal.blocking)).toBe(true);
  });

  it('reads the direction a why-question takes for granted, and a yearly change as from the year before', async () => {
    const floor = await read('Why did the FHA floor fall in 2024?');
    expect(floor.operation).toMatchObject({ kind: 'change', claimed: 'down' });
    expect(planSteps(floor).steps[0]?.query).toMatchObject({ from: '2023', to: '2024' });
    const fed = await read('After the Federal Reserve cut rates in 2019, where was the 15-year rate?');
    expect(fed.operation.claimedActor).toBe('Federal Reserve cut rates');
    expect(fed.refusals[0]?.blocking).toBe(false);
    expect((await read('How did originations in Ohio change in 2023?')).operation.claimed).toBeUndefined();
    expect((await read('Did the 15-year rate really rise in 2021?')).operation.claimed).toBe('up');
  });

  it('refuses a metro area by its whole name, never reading a city of it as its county', async () => {
    const frame = await read('How many mortgages were originated in the Austin-Round Rock, Texas metro area in 2022?');
    expect(frame.qualifiers.metro).toBe('Austin-Round Rock, Texas');
    expect(frame.places).toEqual([]);
    expect(frame.refusals[0]).toMatchObject({ part: 'the Austin-Round Rock, Texas metro area', blocking: true });
  });

  it('reads "that quarter" after a quarter as that quarter, once', async () => {
    const frame = await read('Give the Q1 2025 outstanding mortgage rate in Georgia against the 30-year survey average for that quarter.');
    expect(frame.times.map((time) => [time.grain, time.from])).toEqual([['quarter', '2025-01-01']]);
  });
});

describe.skipIf(!census)('days and calendar questions: each read as the question it is, or refused first', () => {
  it('reads a holiday as its day, in the year written or said after it, and a month with a relative year in that year', async () => {
    const halloween = await read('Where were the 30-year and the 15-year rates on Halloween 2023?');
    expect(halloween.times).toEqual([expect.objectContaining({ grain: 'day', from: '2023-10-31' })]);
    expect(planSteps(halloween).steps.map((step) => step.query.at)).toEqual(['2023-10-31', '2023-10-31']);
    // Thanksgiving is the fourth Thursday; "last year" counts from today (2026-12-07).
    expect((await read('What was the 30-year rate on Thanksgiving last year?')).times).toEqual([
      expect.objectContaining({ grain: 'day', from: '2025-11-27' }),
    ]);
    // "December last year" is last year's December, not this year's, and "last year" is no time of its own.
    const december = await read('What was the 15-year rate in the first week of December last year?');
    expect(december.times).toEqual([expect.objectContaining({ grain: 'month', from: '2025-12-01' })]);
    expect(planSteps(december).steps[0]?.query).toMatchObject({ which: 'first', from: '2025-12', to: '2025-12' });
    const range = await read('How did the 30-year rate change from November last year to February?');
    expect(range.times.map((time) => time.from)).toEqual(['2025-11-01', '2026-02-01']);
  });

  it('reads the first or final survey of a year as that survey, not the year', async () => {
    const final = planSteps(await read('What was the 30-year rate in the final survey of 2023?')).steps[0];
    expect(final?.query).toMatchObject({ which: 'last', from: '2023', to: '2023' });
  });

  it('refuses a day no calendar has, first, and reads no other time from its words', async () => {
    for (const [question, part] of [
      ['What was the 30-year rate on June 31, 2024?', 'June 31, 2024'],
      ['15-year rate on February 29, 2025?', 'February 29, 2025'],
      ['What was the 30-year rate on 2023-00-10?', '2023-00-10'],
    ] as const) {
      const frame = await read(question);
      expect(frame.refusals[0]).toMatchObject({ part, blocking: true });
      expect(frame.times).toEqual([]);
    }
    // A leap day that exists is a day; a day that exists beside one that does not is still asked.
    expect((await read('What was the 30-year rate on February 29, 2024?')).refusals).toEqual([]);
    const both = await read('The 30-year rate on November 31, 2024 and on December 5, 2024?');
    expect(both.refusals[0]).toMatchObject({ part: 'November 31, 2024', blocking: false });
    expect(both.times.map((time) => time.from)).toEqual(['2024-12-05']);
  });

  it('plans calendar weeks, counts by the day of release, which event comes first and a meeting named alone', async () => {
    const words = async (question: string) => {
      const { frame, coverage } = await readFrame(question, context);
      return { frame, ...calendarAsks(frame, coverage.words, TODAY) };
    };
    const week = await words('What is on the economic calendar next week?');
    expect(week.asks).toEqual([expect.objectContaining({ from: '2026-12-14', to: '2026-12-20', names: [] })]);
    const fed = await words('Any Fed meetings this week?');
    expect(fed.asks).toEqual([expect.objectContaining({ from: '2026-12-07', to: '2026-12-13', category: 'fed' })]);
    const bls = await words('Which BLS releases come out next week?');
    expect(bls.asks).toEqual([
      expect.objectContaining({ title: 'BLS', from: '2026-12-14', names: expect.arrayContaining(['Producer Price Index']) }),
    ]);
    // A release named with its publisher is that release ("BLS jobs reports").
    expect((await words('How many BLS jobs reports came out in 2025?')).asks[0]?.names).toEqual(['Employment Situation']);
    const ppi = await words('How many PPI releases were there in April 2025?');
    expect(ppi.asks).toEqual([expect.objectContaining({ names: ['Producer Price Index'], count: true, from: '2025-04-01' })]);
    const order = await words('Which came first in 2025, the first jobs report or the first FOMC decision?');
    expect(order.daysBetween).toBe(true);
    expect(order.asks.map((ask) => [ask.from, ask.to])).toEqual([
      ['2025-01-01', '2025-12-31'],
      ['2025-01-01', '2025-12-31'],
    ]);
    const cut = await words('When did the Fed raise rates in May 2000?');
    expect(cut.refusals[0]?.part).toMatch(/raise/);
    expect((await read('When is the September 2028 Fed meeting?')).topic).toBe('calendar');
  });
});

describe.skipIf(!census)('a release picked from a span, both ends of a rank, each period compared, a part beside a refusal', () => {
  const asks = async (question: string) => {
    const { frame, coverage } = await readFrame(question, context);
    return calendarAsks(frame, coverage.words, TODAY, (index) => coverage.slotOf(index) === 'times');
  };

  it('picks the first of each release, the last before a day and the first after it, and a year against the next', async () => {
    const each = await asks('When are the first BLS jobs report and the first CPI release of 2026?');
    expect(each.asks.map((ask) => [ask.names[0], ask.pick, ask.from, ask.to])).toEqual([
      ['Employment Situation', 'first', '2026-01-01', '2026-12-31'],
      ['Consumer Price Index', 'first', '2026-01-01', '2026-12-31'],
    ]);
    const edges = await asks(
      'Around Independence Day 2026: when is the last Employment Situation release before July 4th and the first one after it?',
    );
    expect(edges.asks.map((ask) => [ask.pick, ask.to > '2026-07-04' ? ask.from : ask.to])).toEqual([
      ['last', '2026-07-03'],
      ['first', '2026-07-05'],
    ]);
    const years = await asks("How many days passed between the Fed's last rate decision of 2024 and its first of 2025?");
    expect(years.daysBetween).toBe(true);
    expect(years.asks.map((ask) => [ask.category, ask.pick, ask.from])).toEqual([
      ['fed', 'last', '2024-01-01'],
      ['fed', 'first', '2025-01-01'],
    ]);
    // "last" of "last year" is the time's, and a count lists every event: nothing is picked.
    expect((await asks('How many CPI releases were there last year?')).asks[0]?.pick).toBeUndefined();
  });

  it('ranks both ways, reads "latest NMDB quarter" as the latest, and compares two places in each period asked', async () => {
    const both = await read('Among states, where is the average rate on outstanding mortgages highest and lowest (latest NMDB quarter)?');
    expect(both.operation).toMatchObject({ kind: 'rank', direction: 'both' });
    expect(both.times.map((time) => time.grain)).toEqual(['latest']);
    expect(planSteps(both).steps.map((step) => step.query.order)).toEqual(['highest', 'lowest']);
    const periods = planSteps(
      await read('FHFA NMDB: average contract rate on outstanding mortgages in Texas vs Florida, Q3 2025, and a year earlier in Q3 2024?'),
    );
    expect(periods.steps.map((step) => step.query.at)).toEqual(['2025Q3', '2024Q3']);
  });

  it('reads a week of the weekly survey as that week, answered by its survey', async () => {
    const plan = planSteps(await read('Freddie Mac 30 yr fixed, week of Labor Day 2026 (the survey that Thursday)?'));
    expect(plan.steps[0]?.query).toMatchObject({ series: 'pmms/30-year', at: '2026-09-07' });
  });

  it('answers a clause a blocking refusal does not touch, with the place it points back to', async () => {
    const question = 'What rate did Rocket Mortgage give in Travis County last year, and what is the 2024 FHA one-unit limit there?';
    const frame = await read(question);
    expect(frame.refusals[0]).toMatchObject({ blocking: true });
    const asked: string[] = [];
    const rest = await independentParts(question, frame, {
      read,
      answer: async (clause) => {
        asked.push(clause);
        return { text: clause, sources: [] };
      },
    });
    expect(asked).toEqual(['what is the 2024 FHA one-unit limit in Travis County, TX?']);
    expect(rest?.text).toBe(asked[0]);
    // Every clause refused: the refusal alone answers.
    const none = await independentParts('How many loans did Wells Fargo make in ZIP code 78701?', frame, {
      read: async () => ({ ...frame, refusals: [{ part: 'all', why: 'refused', blocking: true }] }),
      answer: async () => ({ text: 'never', sources: [] }),
    });
    expect(none).toBeUndefined();
  });
});

describe.skipIf(!census)('what a question asks beyond one figure: runs, extremes, holidays, a year earlier, counts', () => {
  it('reads the longest run beyond a level as a streak of that level, never the last time past it', async () => {
    const frame = await read('What was the longest unbroken stretch of weeks the 30-year rate spent above 7% in 2023?');
    expect(frame.operation.kind).toBe('streak');
    expect(frame.numbers.threshold).toMatchObject({ op: 'above', value: 7 });
    const plan = planSteps(frame);
    expect(plan.steps).toEqual([{ operation: 'streak', query: { series: 'pmms/30-year', from: '2023', to: '2023', above: '7' } }]);
  });

  it('reads a payment at each extreme, and the time between them, as asked of the extremes', async () => {
    const paid = await read(
      "How much more a month would a $250,000 30-year loan cost at this year's highest weekly rate than at its lowest?",
    );
    expect(paid.operation).toMatchObject({ kind: 'extremes', then: 'payment' });
    expect(paid.numbers.amount).toBe(250_000);
    const apart = await read("How many weeks apart were the 15-year rate's 2021 high and low?");
    expect(apart.operation).toMatchObject({ kind: 'extremes', then: 'apart' });
  });

  it('reads a day said from a holiday as that day', async () => {
    const before = await read('What was the 30-year rate in the survey Freddie Mac put out the day before Thanksgiving 2018?');
    expect(before.times[0]).toMatchObject({ grain: 'day', from: '2018-11-21' });
    expect(before.unread).toEqual([]);
    expect((await read('Where was the 15-year rate the Monday after Labor Day 2023?')).times[0]).toMatchObject({ from: '2023-09-11' });
    expect((await read('What did the 30-year rate read two weeks after Independence Day 2024?')).times[0]).toMatchObject({
      from: '2024-07-18',
    });
  });

  it('reads "the same week a year earlier" against the latest figure, not last year', async () => {
    const frame = await read('Compared with the same week a year earlier, how much has the 30-year moved as of its latest reading?');
    expect(frame.operation).toMatchObject({ kind: 'change', yearEarlier: true });
    const plan = planSteps(frame);
    expect(plan.yearEarlier).toBe(true);
    expect(plan.select).toBe('change-between');
  });

  it("reads HMDA records as all records, not a code's share", async () => {
    const frame = await read('What share of all HMDA records nationally came from Florida in 2023?');
    expect(frame.measures.map((measure) => measure.template)).toEqual(['hmda/{place}/records']);
  });

  it('reads a level with its year between its words as the threshold of a count', async () => {
    const frame = await read('How many Colorado counties are at the 2026 ceiling, and which?');
    expect(frame.operation).toMatchObject({ kind: 'count', names: true });
    expect(frame.numbers.threshold).toMatchObject({ op: 'equal', value: 'loan-limits/conforming/ceiling' });
    const fha = await read('How many Florida counties had an FHA limit at the ceiling in 2025?');
    expect(fha.numbers.threshold).toMatchObject({ value: 'loan-limits/fha/ceiling' });
  });

  it('reads the year written with each quarter', async () => {
    const frame = await read('How did the 30-year rate in Q1 2024 compare with Q4 2023?');
    expect(frame.times.map((time) => time.from)).toEqual(['2024-01-01', '2023-10-01']);
  });

  it('reads a meeting held as no decision, and the next release after an event from that event', async () => {
    const held = await read('The Fed held twelve scheduled meetings in 2023 — list them.');
    expect(calendarAsks(held, [], TODAY).refusals).toEqual([]);
    const question = "How many days were there between the Fed's last decision of 2024 and the next CPI release after it?";
    const { frame, coverage } = await readFrame(question, context);
    const { asks, daysBetween } = calendarAsks(frame, coverage.words, TODAY, (index) => coverage.slotOf(index) === 'times');
    expect(daysBetween).toBe(true);
    expect(asks[0]).toMatchObject({ category: 'fed', pick: 'last', from: '2024-01-01' });
    expect(asks[1]).toMatchObject({ afterAsk: 0, pick: 'first' });
    expect(asks[1]?.names).toContain('Consumer Price Index');
  });

  it('reads "one" after first, last or next as the thing named, never as a number of places', async () => {
    const question = "How many days lay between the Fed's last rate decision of 2024 and its first one of 2025?";
    const { frame, coverage } = await readFrame(question, context);
    expect(frame.numbers.topN).toBeUndefined();
    expect(frame.refusals).toEqual([]);
    const { asks, daysBetween } = calendarAsks(frame, coverage.words, TODAY, (index) => coverage.slotOf(index) === 'times');
    expect(daysBetween).toBe(true);
    expect(asks.map((ask) => ask.pick)).toEqual(['last', 'first']);
    expect((await read('Which one of the states had the most originations in 2024?')).numbers.topN).toBeUndefined();
    expect((await read('Top 3 counties in Ohio by originations in 2024')).numbers.topN).toBe(3);
  });

  it('reads a field given a value ("= 6", "is 32") as a code asked about only when its meaning is asked', () => {
    const asked = (question: string) => hmdaCodeAsked(question).map((code) => `${code.label} ${code.code}`);
    expect(asked('What does action_taken = 3 mean in the HMDA file?')).toEqual(['action taken 3']);
    expect(asked("What does it signify when a record's loan purpose is 4?")).toEqual(['loan purpose 4']);
    expect(asked('What is the number of loans with a loan purpose of 31 in Texas in 2024?')).toEqual([]);
  });

  it('reads a city and its county named again as one place, asked once', async () => {
    const frame = await read('Denver homebuyer, Denver County CO. What is the 2025 conforming loan limit for one unit?');
    expect(frame.places.map((place) => (place.kind === 'county' ? place.fips : place.kind))).toEqual(['08031']);
    expect(frame.readings).toEqual(['Denver → Denver County, CO']);
    expect(planSteps(frame).steps).toHaveLength(1);
    const two = await read('Compare the 2025 FHA limit in Harris County, TX with Dallas County, TX');
    expect(two.places).toHaveLength(2);
  });

  it('answers no scene-setting sentence on its own, and carries its place, "that year" and "plus" parts', async () => {
    const parts = async (question: string) => {
      const asked: string[] = [];
      await independentParts(question, await read(question), {
        read,
        answer: async (clause) => {
          asked.push(clause);
          return { text: clause, sources: [] };
        },
      });
      return asked;
    };
    const scene =
      'First-time buyer in Boise (Ada County, ID). What did Chase approve there in 2024, and what is the 2025 FHA limit for a triplex?';
    expect(await parts(scene)).toEqual(['what is the 2025 FHA limit for a triplex in Ada County, ID']);
    const plus = 'Show me HMDA denial rates for ZIP code 83702 in 2023, plus the Idaho statewide originations that year.';
    expect(await parts(plus)).toEqual(['the Idaho statewide originations in 2023 in HMDA']);
  });

  it('reads the max loan amount with a program as its loan limit, for each unit count named', async () => {
    const ids = async (question: string) => (await read(question)).measures.map((measure) => measure.template);
    const fha = await read('With FHA in 2024, what maximum loan amounts apply to a triplex and a fourplex in Harris County, TX?');
    expect(fha.measures.map((measure) => measure.template)).toEqual(['loan-limits/fha/{county}/3-unit', 'loan-limits/fha/{county}/4-unit']);
    expect(fha.refusals).toEqual([]);
    expect(await ids('How big a loan can I take under the conforming limit for a duplex in Kent County, MI in 2025?')).toEqual([
      'loan-limits/conforming/{county}/2-unit',
    ]);
    // The loan amount alone is held by no source.
    const amount = await read('What was the average loan amount in Harris County, TX in 2024?');
    expect(amount.refusals.some((refusal) => refusal.part.includes('loan amount') && refusal.blocking)).toBe(true);
  });
});
