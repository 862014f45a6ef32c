#!/usr/bin/env python3
"""Development questions for the built-in reader's classes of phrasing (a date as a survey week, the
biggest move one way or either, a change from the first figure of a period, two places or two sources
side by side, "a year ago" as a date, a rate with no state or tier, a change within one past period,
a county name several states share, a daily index beside the survey on a named week, a day named
within a multi-part question, calendar weeks and counts, a day no calendar has, Fed decisions before
2021 and a Fed meeting in a year the calendar does not hold, a release picked from a span or beside a
day, both ends of a state rank and two periods side by side, two HUD income measures and a change
between fiscal years, a refused part beside an independent one, a holiday week of the weekly survey). Every fact is computed here from
the publishers' files in the source folder (MDS_SOURCE_DIR, default ../shared/data), standard library
only, never through the service and never typed by hand; `--write` rewrites ask-classes.json beside
this file, in the shared set's format (facts are lists of alternatives; `forbid` strings must be absent).

Today is 2026-12-07, as for the shared set.
"""
import csv
import datetime as dt
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.environ.get("MDS_SOURCE_DIR", os.path.join(HERE, "..", "..", "..", "shared", "data"))
TODAY = dt.date(2026, 12, 7)
MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]


def rates(name, column):
    with open(os.path.join(DATA, "rates", name), newline="") as handle:
        return [(row["observation_date"], float(row[column])) for row in csv.DictReader(handle) if row[column] not in ("", ".")]


PMMS30 = rates("MORTGAGE30US_weekly_1971_2026.csv", "MORTGAGE30US")
PMMS15 = rates("MORTGAGE15US_weekly_1991_2025.csv", "MORTGAGE15US")
OB_CONF = rates("recent_2020_2025/OBMMIC30YF.csv", "OBMMIC30YF")
OB_FHA = rates("recent_2020_2025/OBMMIFHA30YF.csv", "OBMMIFHA30YF")


def day_forms(iso):
    """A date as the answers may write it: 'june 1', 'jun 1', '2023-06-01'."""
    date = dt.date.fromisoformat(iso)
    month = MONTHS[date.month - 1]
    return [f"{month} {date.day}", f"{month[:3]} {date.day}", iso]


def rate_forms(value, digits=2):
    text = f"{value:.{digits}f}"
    return [text, text.rstrip("0").rstrip(".")] if "." in text else [text]


def gap_forms(value):
    size = abs(value)
    points = f"{size:.2f}"
    basis = round(size * 100)
    finer = f"{size:.3f}".rstrip("0").rstrip(".")
    return [points, points.rstrip("0").rstrip("."), finer, f"{basis} basis", f"{basis} bp"]


def survey_of_week(series, iso):
    """The survey published in the Monday-to-Sunday week holding the day."""
    day = dt.date.fromisoformat(iso)
    monday = day - dt.timedelta(days=day.weekday())
    inside = [(d, v) for d, v in series if monday.isoformat() <= d <= (monday + dt.timedelta(days=6)).isoformat()]
    return inside[0]


def in_span(series, start, end):
    return [(d, v) for d, v in series if start <= d <= end]


def biggest_move(series, start, end, way):
    """The largest step (a figure less the one before) ending in the span: up, down or either."""
    best = None
    for index in range(1, len(series)):
        date, value = series[index]
        if not start <= date <= end:
            continue
        step = round(value - series[index - 1][1], 4)
        size = step if way == "up" else -step if way == "down" else abs(step)
        if best is None or size > best[0]:
            best = (size, step, date)
    return best


def first_to_latest(series, start, end="9999-12-31"):
    inside = in_span(series, start, end)
    return inside[0], inside[-1], round(inside[-1][1] - inside[0][1], 4)


def county_counts(year):
    with open(os.path.join(DATA, "hmda", "aggregates", f"by_county_{year}.json")) as handle:
        return {fips: int(value["actionTaken"].get("1", 0)) for fips, value in json.load(handle).items()}


def state_counts(year):
    with open(os.path.join(DATA, "hmda", "aggregates", f"by_state_{year}.json")) as handle:
        return {state: int(value["actionTaken"].get("1", 0)) for state, value in json.load(handle).items()}


def conforming_2026(fips):
    path = os.path.join(DATA, "loan_limits", "fhfa_conforming", "FullCountyLoanLimitList2026_converted_from_xlsx.csv")
    with open(path, newline="") as handle:
        for row in csv.DictReader(handle):
            if row["FIPS State Code"] + row["FIPS County Code"] == fips:
                return int(row["One-Unit Limit"])
    raise KeyError(fips)


def nmdb(state, period):
    path = os.path.join(DATA, "rates", "state_nmdb", "nmdb_states_quarterly_interest_rate_DERIVED.csv")
    with open(path, newline="") as handle:
        for row in csv.DictReader(handle):
            if row["state"] == state and row["period"] == period and row["market"] == "All Mortgages":
                return float(row["ave_intrate_loan_weighted"])
    raise KeyError((state, period))


def count_forms(value):
    return [str(value)]


def survey_questions():
    out = []
    for q, series, iso in [
        ("What was the 30-year fixed rate in the survey released March 6, 2025?", PMMS30, "2025-03-06"),
        ("Give me the 15-year fixed rate from the survey published on 2024-10-17.", PMMS15, "2024-10-17"),
        ("What was the 30-year mortgage rate on Wednesday, July 10, 2024?", PMMS30, "2024-07-10"),
        ("Freddie Mac 30-year rate as of Saturday, November 22, 2025?", PMMS30, "2025-11-22"),
    ]:
        date, value = survey_of_week(series, iso)
        out.append({"kind": "survey_date", "q": q, "facts": [rate_forms(value), day_forms(date)]})
    return out


def move_questions():
    out = []
    for q, series, year, way in [
        ("What was the steepest one-week fall in the 30-year fixed rate in 2024, and when was it?", PMMS30, 2024, "down"),
        ("Biggest weekly drop in the 15-year rate in 2020?", PMMS15, 2020, "down"),
        ("What was the sharpest weekly rise in the 30-year rate during 2022?", PMMS30, 2022, "up"),
        ("What was the biggest one-week move in the 30-year rate in 2025, up or down?", PMMS30, 2025, "either"),
    ]:
        size, step, date = biggest_move(series, f"{year}-01-01", f"{year}-12-31", way)
        out.append({"kind": "biggest_move", "q": q, "facts": [gap_forms(step), day_forms(date)]})
    return out


def since_questions():
    out = []
    for q, series, start in [
        ("How much has the 30-year rate changed since the first survey of this year?", PMMS30, "2026-01-01"),
        ("How has the 30-year fixed rate moved year to date?", PMMS30, "2026-01-01"),
        ("Since the start of 2025, how much has the 30-year mortgage rate changed?", PMMS30, "2025-01-01"),
        ("How far has the 15-year rate moved since January 2025?", PMMS15, "2025-01-01"),
    ]:
        (_, first), (_, last), change = first_to_latest(series, start)
        out.append({"kind": "change_since", "q": q, "facts": [rate_forms(first), rate_forms(last), gap_forms(change)]})
    return out


def place_questions():
    c24, c23 = county_counts(2024), county_counts(2023)
    s24, s22 = state_counts(2024), state_counts(2022)
    pairs = [
        ("Compare originations in Cook County, Illinois with Harris County, Texas in 2024.", c24["17031"], c24["48201"]),
        (
            "Which had more originated home loans in 2023, King County, Washington or Multnomah County, Oregon, and by how many?",
            c23["53033"],
            c23["41051"],
        ),
        ("Originated mortgages in Miami-Dade County versus Florida as a whole in 2024?", c24["12086"], s24["FL"]),
        ("Compare Georgia and North Carolina on originated mortgages in 2022.", s22["GA"], s22["NC"]),
        (
            "How does the 2026 conforming limit for a one-unit home in San Mateo County, California compare to Dallas County, Texas?",
            conforming_2026("06081"),
            conforming_2026("48113"),
        ),
    ]
    return [
        {"kind": "comparison", "q": q, "facts": [count_forms(a), count_forms(b), count_forms(abs(a - b))]} for q, a, b in pairs
    ]


def source_questions():
    out = []
    for q, ob, iso in [
        ("How did Optimal Blue's 30-year conforming rate compare with Freddie Mac's 30-year rate on June 12, 2025?", OB_CONF, "2025-06-12"),
        ("What was the gap between the Optimal Blue FHA index and Freddie Mac's 30-year rate on January 16, 2025?", OB_FHA, "2025-01-16"),
    ]:
        a = dict(ob)[iso]
        b = dict(PMMS30)[iso]
        out.append({"kind": "two_sources", "q": q, "facts": [rate_forms(a, 3), rate_forms(b), gap_forms(a - b)]})
    fl = nmdb("FL", "2025Q2")
    pmms = sum(v for _, v in in_span(PMMS30, "2025-04-01", "2025-06-30")) / len(in_span(PMMS30, "2025-04-01", "2025-06-30"))
    out.append(
        {
            "kind": "two_sources",
            "q": "Compare the average rate on outstanding mortgages in Florida with Freddie Mac's 30-year rate in Q2 2025.",
            "facts": [rate_forms(fl, 1), [f"{pmms:.2f}", f"{pmms:.3f}", f"{int(pmms * 1000 + 0.5 + 1e-9) / 1000:.3f}"], gap_forms(fl - pmms)],
        }
    )
    return out


def ago_questions():
    year_ago = TODAY.replace(year=TODAY.year - 1).isoformat()
    date, value = survey_of_week(PMMS30, year_ago)
    latest_date, latest = PMMS30[-1]
    return [
        {"kind": "year_ago", "q": "What was the 30-year fixed rate a year ago?", "facts": [rate_forms(value), day_forms(date)]},
        {"kind": "year_ago", "q": "Where was the 30-year mortgage rate 12 months ago?", "facts": [rate_forms(value), day_forms(date)]},
        {
            "kind": "year_ago",
            "q": "How much has the 30-year rate changed compared with one year ago?",
            "facts": [rate_forms(value), rate_forms(latest), gap_forms(latest - value)],
        },
    ]


def default_questions():
    forbid = ["780+", "credit tier", "loan-to-value"]
    return [
        {"kind": "no_default", "q": "What's the current mortgage rate?", "facts": [rate_forms(PMMS30[-1][1])], "forbid": forbid},
        {"kind": "no_default", "q": "What is today's 15-year fixed rate?", "facts": [rate_forms(PMMS15[-1][1])], "forbid": forbid},
    ]


def within_questions():
    """One past period asked on its own: the change from its first figure to its last."""
    out = []
    for q, series, start, end in [
        ("How much did the 30-year rate change in 2024?", PMMS30, "2024-01-01", "2024-12-31"),
        ("By how much did the 15-year fixed rate move during 2022?", PMMS15, "2022-01-01", "2022-12-31"),
        ("How did the 30-year mortgage rate change over Q3 2023?", PMMS30, "2023-07-01", "2023-09-30"),
        ("How far did the 15-year rate fall in the fourth quarter of 2023?", PMMS15, "2023-10-01", "2023-12-31"),
    ]:
        (_, first), (_, last), change = first_to_latest(series, start, end)
        out.append({"kind": "change_within", "q": q, "facts": [rate_forms(first), rate_forms(last), gap_forms(change)]})
    return out


def county_names():
    """County FIPS → (name, state), from FHFA's 2026 list."""
    path = os.path.join(DATA, "loan_limits", "fhfa_conforming", "FullCountyLoanLimitList2026_converted_from_xlsx.csv")
    with open(path, newline="") as handle:
        return {row["FIPS State Code"] + row["FIPS County Code"]: (row["County Name"].title(), row["State"]) for row in csv.DictReader(handle)}


def same_name_questions():
    """A county named with no state where several states have one: which states, and which was used (the most populous)."""
    names = county_names()
    with open(os.path.join(DATA, "geo", "hmda_county_population_2024.json")) as handle:
        people = {fips: int(value) for fips, value in json.load(handle).items()}
    c24 = county_counts(2024)

    def most_populous(name):
        matches = [fips for fips, (county, _) in names.items() if county == name]
        best = max(matches, key=lambda fips: people.get(fips, 0))
        return best, len({names[fips][1] for fips in matches})

    out = []
    orange, n_orange = most_populous("Orange County")
    out.append(
        {
            "kind": "same_name_county",
            "q": "What is the conforming loan limit in Orange County?",
            "facts": [[f"{n_orange} states"], [f"orange county, {names[orange][1].lower()}"], count_forms(conforming_2026(orange))],
        }
    )
    washington, n_washington = most_populous("Washington County")
    out.append(
        {
            "kind": "same_name_county",
            "q": "How many home loans were originated in Washington County in 2024?",
            "facts": [[f"{n_washington} states"], [f"washington county, {names[washington][1].lower()}"], count_forms(c24[washington])],
        }
    )
    cook, n_cook = most_populous("Cook County")
    harris, n_harris = most_populous("Harris County")
    out.append(
        {
            "kind": "same_name_county",
            "q": "Cook County vs Harris County: which originated more mortgages in 2024?",
            "facts": [[f"{n_cook} states"], [f"{n_harris} states"], count_forms(c24[cook]), count_forms(c24[harris])],
        }
    )
    return out


def survey_day_questions():
    """A daily index beside the weekly survey on a named week: both on the survey's own date."""
    out = []
    for q, ob, iso in [
        ("Compare Optimal Blue's 30-year conforming rate with Freddie Mac's 30-year rate in the week of June 9, 2025.", OB_CONF, "2025-06-09"),
        ("Optimal Blue FHA index vs the Freddie Mac 30-year rate on Sunday, March 9, 2025?", OB_FHA, "2025-03-09"),
    ]:
        date, pmms = survey_of_week(PMMS30, iso)
        a = dict(ob)[date]
        out.append({"kind": "two_sources", "q": q, "facts": [rate_forms(a, 3), rate_forms(pmms), gap_forms(a - pmms)]})
    return out


def county_fields(year):
    with open(os.path.join(DATA, "hmda", "aggregates", f"by_county_{year}.json")) as handle:
        return json.load(handle)


def state_fields(year):
    with open(os.path.join(DATA, "hmda", "aggregates", f"by_state_{year}.json")) as handle:
        return json.load(handle)


def code_count(fields, dimension, code):
    return int(fields.get(dimension, {}).get(code, 0))


def all_records(fields):
    return sum(int(value) for value in fields["actionTaken"].values())


def denial_rate(fields):
    decided = sum(code_count(fields, "actionTaken", code) for code in ("1", "2", "3"))
    return code_count(fields, "actionTaken", "3") / decided * 100 if decided else None


def share_forms(value):
    return [f"{value:.2f}", f"{value:.2f}".rstrip("0").rstrip("."), f"{value:.1f}"]


def name_forms(name):
    return [name.lower()]


STATE_NAMES = {"MS": "Mississippi", "LA": "Louisiana", "AL": "Alabama", "AR": "Arkansas", "OK": "Oklahoma", "TX": "Texas", "FL": "Florida", "NM": "New Mexico", "WV": "West Virginia", "GA": "Georgia", "SC": "South Carolina", "TN": "Tennessee", "KY": "Kentucky", "NV": "Nevada", "DC": "District of Columbia", "NY": "New York", "HI": "Hawaii", "AK": "Alaska", "AZ": "Arizona", "MD": "Maryland", "NC": "North Carolina", "OH": "Ohio", "MO": "Missouri", "DE": "Delaware", "IL": "Illinois", "IN": "Indiana", "KS": "Kansas", "NJ": "New Jersey", "CA": "California", "VA": "Virginia", "PA": "Pennsylvania", "ME": "Maine", "MI": "Michigan", "CT": "Connecticut", "RI": "Rhode Island", "WY": "Wyoming", "MT": "Montana", "ID": "Idaho", "SD": "South Dakota", "ND": "North Dakota", "NE": "Nebraska", "IA": "Iowa", "MN": "Minnesota", "WI": "Wisconsin", "CO": "Colorado", "UT": "Utah", "OR": "Oregon", "WA": "Washington", "VT": "Vermont", "NH": "New Hampshire", "MA": "Massachusetts"}


def share_threshold_questions():
    """A share written in words ("at least a quarter", "more than a fifth") is a percent threshold on the count's share."""
    tx = {fips: denial_rate(fields) for fips, fields in county_fields(2023).items() if fips.startswith("48")}
    tx_count = sum(1 for rate in tx.values() if rate is not None and rate > 25)
    ga = county_fields(2024)
    ga_fha = [fips for fips, fields in ga.items() if fips.startswith("13") and code_count(fields, "loanType", "2") / all_records(fields) * 100 > 20]
    s22 = state_fields(2022)
    purchase = sum(1 for code, fields in s22.items() if code in STATE_NAMES and code_count(fields, "loanPurpose", "1") / all_records(fields) * 100 > 60)
    return [
        {"kind": "share_threshold", "q": "How many counties in Texas had at least a quarter of applications denied in 2023?", "facts": [count_forms(tx_count)], "forbid": ["0.25"]},
        {"kind": "share_threshold", "q": "In how many Georgia counties were more than a fifth of HMDA records FHA loans in 2024?", "facts": [count_forms(len(ga_fha))], "forbid": ["above 0.2"]},
        {"kind": "share_threshold", "q": "How many states had more than three-fifths of their HMDA records for home purchase in 2022?", "facts": [count_forms(purchase), ["above 60"]], "forbid": ["0.6 "]},
    ]


def count_names_questions():
    """A count asked with "which ones" / "name them": the count and the places."""
    ga = county_fields(2024)
    names = county_names()
    above = sorted(
        ((code_count(fields, "loanType", "2") / all_records(fields) * 100, fips) for fips, fields in ga.items() if fips.startswith("13")),
        reverse=True,
    )
    over30 = [fips for share, fips in above if share > 30]
    states = state_fields(2023)
    high = sorted((denial_rate(fields), code) for code, fields in states.items() if code in STATE_NAMES and denial_rate(fields) > 26)
    s22 = state_fields(2022)
    cash = sorted(
        (code_count(fields, "loanPurpose", "32") / all_records(fields) * 100, code) for code, fields in s22.items()
    )
    cash_states = [code for share, code in cash if share > 25 and code in STATE_NAMES]
    return [
        {
            "kind": "count_names",
            "q": "Which states had more than a quarter of their HMDA records for cash-out refinancing in 2022?",
            "facts": [count_forms(len(cash_states))] + [name_forms(STATE_NAMES[code]) for code in cash_states],
            "forbid": ["0.25"],
        },
        {
            "kind": "count_names",
            "q": "How many counties in Georgia had FHA loans above 30% of HMDA records in 2024? Name them.",
            "facts": [count_forms(len(over30))] + [name_forms(names[fips][0]) for fips in (over30[0], over30[-1])],
        },
        {
            "kind": "count_names",
            "q": "How many states had a denial rate above 26% in 2023, and which ones?",
            "facts": [count_forms(len(high))] + [name_forms(STATE_NAMES[code]) for _, code in high[:3]],
        },
    ]


def percent_of_total_questions():
    """What % of records were one program: the division done, with both counts."""
    oh, tx, ga = state_fields(2023)["OH"], state_fields(2024)["TX"], state_fields(2022)["GA"]
    out = []
    for q, fields, dimension, code in [
        ("What percentage of HMDA records in Georgia were FHA loans in 2022?", ga, "loanType", "2"),
        ("What % of home purchase loans in Ohio were FHA in 2023?", oh, "loanType", "2"),
        ("What share of originations in Texas were VA in 2024?", tx, "loanType", "3"),
    ]:
        part, whole = code_count(fields, dimension, code), all_records(fields)
        out.append({"kind": "percent_of_total", "q": q, "facts": [share_forms(part / whole * 100), count_forms(part), count_forms(whole)]})
    return out


def section8(year, fips10):
    path = os.path.join(DATA, "income_limits", "hud_section8", f"Section8-FY{year % 100}.csv")
    with open(path, newline="", encoding="utf-8-sig") as handle:
        for row in csv.DictReader(handle):
            if row["fips2010"] == fips10:
                return row
    raise KeyError((year, fips10))


def several_places_questions():
    """Several places (or years) in one question: each answered."""
    c24 = county_counts(2024)
    return [
        {
            "kind": "several_places",
            "q": "What were the 2026 conforming loan limits for Summit County in Colorado, Utah and Ohio?",
            "facts": [count_forms(conforming_2026(fips)) for fips in ("08117", "49043", "39153")],
        },
        {
            "kind": "several_places",
            "q": "Compare originations in Travis, Williamson and Hays counties in 2024.",
            "facts": [count_forms(c24[fips]) for fips in ("48453", "48491", "48209")],
        },
        {
            "kind": "several_places",
            "q": "What was the area median family income in Cook County, Illinois for 2019 and 2021?",
            "facts": [count_forms(int(section8(year, "1703199999")[f"median{year}"])) for year in (2019, 2021)],
        },
    ]


def two_codes_questions():
    """Two codes of one HMDA field: a count each, or a refusal for a field the aggregates do not count."""
    oh, tx, fl = state_fields(2022)["OH"], state_fields(2024)["TX"], state_fields(2023)["FL"]
    return [
        {
            "kind": "two_codes",
            "q": "How many records in Ohio had loan purpose 31 vs 32 in 2022?",
            "facts": [count_forms(code_count(oh, "loanPurpose", "31")), count_forms(code_count(oh, "loanPurpose", "32"))],
        },
        {
            "kind": "two_codes",
            "q": "In 2024, how many Texas records had action taken codes 1 and 3?",
            "facts": [count_forms(code_count(tx, "actionTaken", "1")), count_forms(code_count(tx, "actionTaken", "3"))],
        },
        {
            "kind": "two_codes",
            "q": "How many applications in Florida were denied for denial reason codes 1 and 4 in 2023?",
            "facts": [["can't", "cannot"], ["reason"]],
            "forbid": [str(code_count(fl, "actionTaken", "3")), "denial rate"],
        },
    ]


def baseline(year):
    """The national conforming baseline: the lowest one-unit limit of FHFA's county list."""
    path = os.path.join(DATA, "loan_limits", "fhfa_conforming", f"FullCountyLoanLimitList{year}.txt")
    with open(path, newline="", encoding="utf-8-sig") as handle:
        rows = list(csv.reader(handle, delimiter="|"))
    return min(int(row[5]) for row in rows[1:] if len(row) > 5 and row[5].strip().isdigit())


def premise_questions():
    """A false premise corrected first, with the true figures."""
    fl21, fl22 = state_counts(2021)["FL"], state_counts(2022)["FL"]
    return [
        {
            "kind": "false_premise",
            "q": "Why did the conforming loan limit go down in 2023?",
            "facts": [["not right", "did not go down", "didn't go down"], count_forms(baseline(2022)), count_forms(baseline(2023))],
        },
        {
            "kind": "false_premise",
            "q": "How come mortgage originations in Florida went up in 2022?",
            "facts": [["not right", "did not go up", "didn't go up"], count_forms(fl21), count_forms(fl22)],
        },
    ]


def same_quarter_questions():
    """A quarterly series beside the survey "that quarter": the same quarter for both."""
    out = []
    for q, state, year, quarter in [
        ("What was the Q2 2024 average rate on outstanding mortgages in Texas vs the Freddie Mac 30-year average that quarter?", "TX", 2024, 2),
        ("Compare the average rate on outstanding mortgages in Ohio in Q3 2023 with Freddie Mac's 30-year average in the same quarter.", "OH", 2023, 3),
    ]:
        start, end = f"{year}-{3 * quarter - 2:02d}-01", f"{year}-{3 * quarter:02d}-31"
        inside = in_span(PMMS30, start, end)
        pmms = sum(v for _, v in inside) / len(inside)
        rate = nmdb(state, f"{year}Q{quarter}")
        out.append(
            {
                "kind": "same_quarter",
                "q": q,
                "facts": [rate_forms(rate, 1), [f"{pmms:.2f}", f"{pmms:.3f}", f"{int(pmms * 1000 + 0.5 + 1e-9) / 1000:.3f}"], [f"{year}q{quarter}"]],
            }
        )
    return out


def metro_questions():
    """A metro area: the HMDA aggregates loaded are by county and state; metro record counts are not originations."""
    with open(os.path.join(DATA, "hmda", "aggregates", "record_counts", "msamdCounts2023.json")) as handle:
        records = json.load(handle)["19740"]
    return [
        {
            "kind": "metro",
            "q": "How many loans were originated in the Denver metro area in 2023?",
            "facts": [["can't", "cannot"], ["metro"]],
            "forbid": [str(records)],
        }
    ]


def bls_events():
    """(day, release name) of every event in BLS's iCalendar feed."""
    events, day = [], None
    with open(os.path.join(DATA, "calendar", "bls.ics")) as handle:
        for line in handle:
            line = line.strip()
            if line.startswith("DTSTART"):
                stamp = line.split(":")[-1]
                day = f"{stamp[:4]}-{stamp[4:6]}-{stamp[6:8]}"
            elif line.startswith("SUMMARY:") and day:
                events.append((day, line[len("SUMMARY:"):]))
                day = None
    return events


def fomc_decisions():
    with open(os.path.join(DATA, "calendar", "fomc_decision_dates_2000_2026.csv"), newline="") as handle:
        return [row["date"] for row in csv.DictReader(handle)]


def fomc_meetings():
    with open(os.path.join(DATA, "calendar", "fomc_meetings_2021_2025.csv"), newline="") as handle:
        return [row["decision_date"] for row in csv.DictReader(handle)]


def dated_forms(iso):
    """A day with its year ("january 3, 2001"), so that "january 3" is not found inside "january 31"."""
    date = dt.date.fromisoformat(iso)
    month = MONTHS[date.month - 1]
    return [f"{month} {date.day}, {date.year}", f"{month[:3]} {date.day}, {date.year}", iso]


def tally_forms(value, names):
    """A count said with what it counts ("10 fomc", "1 producer price index release"), not a bare number."""
    return [f"{value} {name}" for name in names]


def multi_day_questions():
    """A day inside a multi-part question: that day's weekly survey, never the year's mean."""
    out = []
    for q, day in [
        ("What was the 30-year fixed rate on Christmas Day 2023, and the 15-year in that same week?", "2023-12-25"),
        ("Where were the 30-year and 15-year rates on Thanksgiving 2024?", "2024-11-28"),
    ]:
        d30, v30 = survey_of_week(PMMS30, day)
        _, v15 = survey_of_week(PMMS15, day)
        out.append({"kind": "day_in_multi", "q": q, "facts": [rate_forms(v30), rate_forms(v15), day_forms(d30)]})
    for q, series, start, end, which in [
        ("What did the 15-year rate read in the final survey of 2024?", PMMS15, "2024-01-01", "2024-12-31", -1),
        ("Give me the 30-year rate from the first survey of 2022.", PMMS30, "2022-01-01", "2022-12-31", 0),
        ("What was the 30-year rate in the first week of November last year?", PMMS30, "2025-11-01", "2025-11-30", 0),
    ]:
        date, value = in_span(series, start, end)[which]
        out.append({"kind": "day_in_multi", "q": q, "facts": [rate_forms(value), day_forms(date)]})
    return out


def calendar_questions():
    """Calendar weeks counted from today, a release counted in a month, days between two Fed decisions, which comes first."""
    bls, fomc, meetings = bls_events(), fomc_decisions(), fomc_meetings()
    monday = TODAY - dt.timedelta(days=TODAY.weekday())
    next_week = [(d, n) for d, n in bls if (monday + dt.timedelta(days=7)).isoformat() <= d <= (monday + dt.timedelta(days=13)).isoformat()]
    this_week = [d for d in fomc if monday.isoformat() <= d <= (monday + dt.timedelta(days=6)).isoformat()]
    out = [
        {"kind": "calendar_week", "q": "What BLS releases are on the calendar next week?", "facts": [[n.lower()] for _, n in next_week] + [dated_forms(d) for d, _ in next_week]},
        {"kind": "calendar_week", "q": "Is there a Fed decision this week?", "facts": [dated_forms(d) for d in this_week]},
    ]
    for q, name, short, month in [
        ("How many PPI releases were there in June 2025?", "Producer Price Index", "ppi", "2025-06"),
        ("How many jobs reports came out in February 2026?", "Employment Situation", "jobs report", "2026-02"),
    ]:
        days = [d for d, n in bls if n == name and d.startswith(month)]
        out.append({"kind": "calendar_count", "q": q, "facts": [tally_forms(len(days), [name.lower(), short])] + [dated_forms(d) for d in days]})
    sept, octo = [d for d in meetings if d.startswith("2025-09")][0], [d for d in meetings if d.startswith("2025-10")][0]
    gap = (dt.date.fromisoformat(octo) - dt.date.fromisoformat(sept)).days
    out.append({"kind": "calendar_count", "q": "How many days passed between the September and October 2025 FOMC decisions?", "facts": [[f"{gap} days"], dated_forms(sept), dated_forms(octo)]})
    cpi = [d for d, n in bls if n == "Consumer Price Index" and d.startswith("2026")][0]
    fed = [d for d in fomc if d.startswith("2026")][0]
    out.append({"kind": "calendar_order", "q": "Which comes first in 2026, the first CPI release or the first FOMC decision?", "facts": [dated_forms(cpi), dated_forms(fed), ["before"]]})
    return out


def impossible_day_questions():
    """A day no calendar has: refused first, never answered for a day nearby."""
    out = []
    for q, text, near in [
        ("What was the 15-year fixed rate on April 31, 2025?", "april 31, 2025", "2025-04-30"),
        ("What did the 30-year rate read on February 29, 2023, and on March 15, 2023?", "february 29, 2023", "2023-02-28"),
        ("Freddie Mac 30-year rate on 2024-13-05?", "2024-13-05", None),
    ]:
        forbid = rate_forms(survey_of_week(PMMS15 if "15-year" in q else PMMS30, near)[1]) if near else []
        # The day that exists is still answered ("and on March 15, 2023"), after the refusal.
        also = [rate_forms(survey_of_week(PMMS30, "2023-03-15")[1])] if "march 15" in q.lower() else []
        out.append({"kind": "impossible_day", "q": q, "facts": [[text], ["not a day"], *also], "forbid": forbid})
    return out


def fomc_history_questions():
    """Fed decisions before 2021, unscheduled ones included, from the publisher's list of decision days."""
    fomc = fomc_decisions()
    out = []
    for q, prefix in [("When did the FOMC announce decisions in March 2020?", "2020-03"), ("When did the Fed cut rates in January 2001?", "2001-01")]:
        out.append({"kind": "fomc_history", "q": q, "facts": [dated_forms(d) for d in fomc if d.startswith(prefix)]})
    for q, year in [("How many FOMC decisions were there in 2008?", "2008"), ("How many Fed rate decisions came in 2001?", "2001")]:
        out.append({"kind": "fomc_history", "q": q, "facts": [tally_forms(len([d for d in fomc if d.startswith(year)]), ["fomc", "decisions", "rate decisions"])]})
    return out


def fomc_unheld_questions():
    """A Fed meeting in a year the calendar does not hold: said plainly, first."""
    return [
        {"kind": "fomc_unheld", "q": "When is the Fed's March 2028 meeting?", "facts": [["holds no"], ["march 2028"]]},
        {"kind": "fomc_unheld", "q": "What was the 30-year rate at the June 2028 FOMC meeting?", "facts": [["holds no"], ["june 2028"]]},
    ]


def hud_income(fy, fips5):
    """The whole county's row of HUD's Section 8 file for a fiscal year (area code ending 99999)."""
    path = os.path.join(DATA, "income_limits", "hud_section8", f"Section8-FY{fy % 100:02d}.csv")
    with open(path, newline="", encoding="utf-8-sig", errors="replace") as handle:
        for row in csv.DictReader(handle):
            if row["fips2010"] == f"{fips5}99999":
                return {"median": int(row[f"median{fy}"]), **{k: int(v) for k, v in row.items() if k[:4] in ("l50_", "l80_", "ELI_")}}
    raise KeyError((fy, fips5))


def money_forms(value):
    return [f"${value:,}", f"{value:,}", str(value)]


def pick_questions():
    """One event picked from a span or beside a day: the first of each release, the last before a day and the first after it, days between a year's last and the next's first, days to the next one with its weekday."""
    bls, fomc = bls_events(), fomc_decisions()
    named = lambda name, start, end: sorted(d for d, n in bls if n == name and start <= d <= end)
    ppi = named("Producer Price Index", "2025-01-01", "2025-12-31")[0]
    jolts = named("Job Openings and Labor Turnover Survey", "2025-01-01", "2025-12-31")[0]
    out = [{"kind": "calendar_pick", "q": "What were the first PPI release and the first JOLTS release of 2025?", "facts": [dated_forms(ppi), dated_forms(jolts)]}]
    labor = "2025-09-01"
    before = named("Consumer Price Index", "2024-09-01", "2025-08-31")[-1]
    after = named("Consumer Price Index", "2025-09-02", "2026-09-01")[0]
    out.append({"kind": "calendar_edge", "q": "Around Labor Day 2025: the last CPI release before it and the first CPI release after it?", "facts": [dated_forms(before), dated_forms(after)]})
    first, last = [d for d in fomc if d.startswith("2023")][0], [d for d in fomc if d.startswith("2023")][-1]
    gap = (dt.date.fromisoformat(last) - dt.date.fromisoformat(first)).days
    out.append({"kind": "calendar_pick", "q": "How many days separated the first FOMC decision of 2023 from the final one of 2023?", "facts": [[f"{gap} days"], dated_forms(first), dated_forms(last)]})
    nxt = named("Producer Price Index", (TODAY + dt.timedelta(days=1)).isoformat(), "2099-12-31")[0]
    days = (dt.date.fromisoformat(nxt) - TODAY).days
    weekday = dt.date.fromisoformat(nxt).strftime("%A").lower()
    out.append({"kind": "calendar_next", "q": "How long until the next PPI release, and which day of the week does it land on?", "facts": [[f"{days} days"], [weekday], dated_forms(nxt)]})
    return out


def nmdb_questions():
    """NMDB state rates: both ends of a rank in the latest quarter, and two states in each of two quarters."""
    path = os.path.join(DATA, "rates", "state_nmdb", "nmdb_states_quarterly_interest_rate_DERIVED.csv")
    with open(path, newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if r["market"] == "All Mortgages" and r["ave_intrate_loan_weighted"] not in ("", ".")]
    latest = max(r["period"] for r in rows)
    values = {r["state_name"]: float(r["ave_intrate_loan_weighted"]) for r in rows if r["period"] == latest}
    top, bottom = max(values.values()), min(values.values())
    facts = [[name.lower()] for name, v in values.items() if v in (top, bottom)] + [rate_forms(top, 1), rate_forms(bottom, 1)]
    out = [{"kind": "nmdb_both_ends", "q": "In the most recent NMDB quarter, which states have the lowest and the highest average interest rate on outstanding mortgages?", "facts": facts}]
    q = "Average rate on outstanding mortgages, Ohio vs Michigan, in 2024Q1 and again in 2025Q1?"
    out.append({"kind": "nmdb_each_period", "q": q, "facts": [rate_forms(nmdb(s, p), 1) for s in ("OH", "MI") for p in ("2024Q1", "2025Q1")]})
    return out


def income_questions():
    """HUD income: two measures in one question, and a change between fiscal years with both years."""
    harris = hud_income(2020, "48201")
    king19, king21 = hud_income(2019, "53033"), hud_income(2021, "53033")
    return [
        {"kind": "income_two_measures", "q": "Harris County, Texas, FY2020: the very low-income (50%) limit for a household of three, and the area median family income?", "facts": [money_forms(harris["l50_3"]), money_forms(harris["median"])]},
        {"kind": "income_change", "q": "How did the area median family income of King County, Washington change between FY2019 and FY2021?", "facts": [money_forms(king19["median"]), money_forms(king21["median"]), money_forms(king21["median"] - king19["median"])]},
    ]


def independent_part_questions():
    """A refused part does not silence an independent one; a holiday week of the weekly survey is that week's survey."""
    limit = conforming_2026("04013")
    date, value = survey_of_week(PMMS15, "2025-05-26")
    return [
        {"kind": "refusal_then_answer", "q": "What rate did Wells Fargo charge in Maricopa County, Arizona this year, and what is the 2026 one-unit conforming limit there?", "facts": [["wells fargo"], money_forms(limit)]},
        {"kind": "holiday_week_survey", "q": "Freddie Mac 15-year fixed for the week of Memorial Day 2025?", "facts": [rate_forms(value), day_forms(date)]},
    ]


def longest_run(series, start, end, below=None, above=None):
    """The longest unbroken run of observations strictly below or above a level: (length, first, last)."""
    best, run = None, []
    for date, value in in_span(series, start, end):
        if (below is not None and value < below) or (above is not None and value > above):
            run.append(date)
            if best is None or len(run) > len(best):
                best = list(run)
        else:
            run = []
    return len(best), best[0], best[-1]


def streak_questions():
    """The longest run of weeks beyond a level: its length, first and last week."""
    out = []
    for q, series, start, end, below, above in [
        ("What was the longest unbroken stretch of weeks the 30-year rate spent above 7% during 2023, and when did it start and end?", PMMS30, "2023-01-01", "2023-12-31", None, 7),
        ("Longest run of consecutive weeks with the 15-year fixed rate under 3%: how many weeks, and its first and last week?", PMMS15, "0000", "9999", 3, None),
    ]:
        length, first, last = longest_run(series, start, end, below, above)
        out.append({"kind": "streak_threshold", "q": q, "facts": [[f"{length} weeks"], day_forms(first), day_forms(last)]})
    return out


def payment(amount, rate, years):
    r, n = rate / 100 / 12, years * 12
    return round(amount * r / (1 - (1 + r) ** -n), 2)


def extremes_of(series, start, end):
    inside = in_span(series, start, end)
    high, low = max(v for _, v in inside), min(v for _, v in inside)
    return (high, [d for d, v in inside if v == high]), (low, [d for d, v in inside if v == low])


def extremes_then_questions():
    """What is asked of a period's high and low: a loan's payment at each and the difference; the days between them."""
    (high, _), (low, _) = extremes_of(PMMS30, "2024-01-01", "2024-12-31")
    at_high, at_low = payment(320000, high, 30), payment(320000, low, 30)
    out = [{
        "kind": "extremes_payment",
        "q": "How much more per month would a $320,000 30-year loan cost at the 2024 high of the 30-year rate than at its 2024 low?",
        "facts": [[f"{at_high:.2f}"], [f"{at_low:.2f}"], [f"{at_high - at_low:.2f}"]],
    }]
    (_, high_days), (_, low_days) = extremes_of(PMMS15, "2021-01-01", "2021-12-31")
    days = abs((dt.date.fromisoformat(high_days[0]) - dt.date.fromisoformat(low_days[0])).days)
    out.append({"kind": "extremes_apart", "q": "How many weeks apart were the 15-year rate's 2021 high and its 2021 low?", "facts": [[f"{days} days"], [f"{days / 7:g} weeks", f"{days / 7:.1f} weeks"]]})
    return out


def holiday_offset_questions():
    """A day said from a holiday, inside the question: that day's week's survey, not the year's mean."""
    out = []
    for q, series, day in [
        ("What was the 30-year rate in the survey Freddie Mac put out the day before Thanksgiving 2021?", PMMS30, "2021-11-24"),
        ("Where was the 15-year rate the Monday after Labor Day 2022?", PMMS15, "2022-09-12"),
        ("What did the 30-year fixed rate read two weeks after Independence Day 2023?", PMMS30, "2023-07-18"),
    ]:
        date, value = survey_of_week(series, day)
        out.append({"kind": "holiday_offset", "q": q, "facts": [rate_forms(value), day_forms(date)]})
    return out


def year_earlier_questions():
    """The latest survey against the one 52 weeks before it."""
    latest_date, latest = PMMS15[-1]
    before_day = (dt.date.fromisoformat(latest_date) - dt.timedelta(days=364)).isoformat()
    before = [(d, v) for d, v in PMMS15 if d <= before_day][-1]
    return [{
        "kind": "year_earlier",
        "q": "Against the same week a year earlier, how far has the 15-year rate moved at its most recent reading?",
        "facts": [rate_forms(latest), rate_forms(before[1]), gap_forms(latest - before[1]), day_forms(before[0])],
    }]


def records_questions():
    """HMDA records are every record: a state's share of the nation's, and a change between years."""
    s22, s23 = state_fields(2022), state_fields(2023)
    # The nation is every entry of the state file: the states, DC and the territories.
    tx, us = all_records(s22["TX"]), sum(all_records(fields) for fields in s22.values())
    ga22, ga23 = all_records(s22["GA"]), all_records(s23["GA"])
    return [
        {"kind": "hmda_records", "q": "What share of all HMDA records nationally came from Texas in 2022?", "facts": [share_forms(tx / us * 100), count_forms(tx)]},
        {"kind": "hmda_records", "q": "How did the number of HMDA records in Georgia change from 2022 to 2023?", "facts": [count_forms(ga22), count_forms(ga23), count_forms(abs(ga23 - ga22))]},
    ]


def conforming_limits(year):
    path = os.path.join(DATA, "loan_limits", "fhfa_conforming", f"FullCountyLoanLimitList{year}.txt")
    with open(path, newline="", encoding="utf-8-sig") as handle:
        rows = list(csv.reader(handle, delimiter="|"))
    return {row[0] + row[1]: (row[2], int(row[5])) for row in rows[1:] if len(row) > 5 and row[5].strip().isdigit()}


def level_count_questions():
    """A count of a state's counties at a national level, with their names."""
    limits, names = conforming_limits(2025), county_names()
    ceiling = baseline(2025) * 3 // 2
    at = sorted(names[fips][0] for fips, (_, value) in limits.items() if fips.startswith("06") and value == ceiling)
    return [{
        "kind": "level_count",
        "q": "How many California counties sat at the 2025 conforming ceiling? Name them.",
        "facts": [[f"{len(at)} of"]] + [name_forms(name) for name in at[:3]],
    }]


def count_premise_questions():
    """A count of calendar events taken for granted: the true count first, then the events."""
    fomc, bls = fomc_decisions(), bls_events()
    y24 = [d for d in fomc if d.startswith("2024")]
    cpi24 = [d for d in cpi_dates(bls) if d.startswith("2024")]
    return [
        {"kind": "count_premise", "q": "The FOMC held ten scheduled meetings in 2024, so list them all.", "facts": [["not right"], [f"**{len(y24)}** fomc"], dated_forms(y24[0])]},
        {"kind": "count_premise", "q": "CPI is released twice a month; what were the 2024 CPI release dates?", "facts": [["not right"], [f"**{len(cpi24)}** consumer price index"], dated_forms(cpi24[0])]},
    ]


def cpi_dates(bls):
    """Every CPI release day: BLS's iCalendar feed and its release history file."""
    with open(os.path.join(DATA, "calendar", "us_cpi_release_dates.csv"), newline="") as handle:
        history = {row["release_date"] for row in csv.DictReader(handle)}
    return sorted(history | {d for d, n in bls if n == "Consumer Price Index"})


def after_event_questions():
    """The next release after an event, then the days between them."""
    fomc, bls = fomc_decisions(), bls_events()
    last = [d for d in fomc if d.startswith("2023")][-1]
    cpi = sorted(d for d in cpi_dates(bls) if d > last)[0]
    days = (dt.date.fromisoformat(cpi) - dt.date.fromisoformat(last)).days
    return [{"kind": "after_event", "q": "How many days were there between the Fed's final decision of 2023 and the next CPI release after it?", "facts": [[f"{days} days"], dated_forms(last), dated_forms(cpi)]}]


def income_level_questions():
    """A level named against the median ("50% of area median income") is that level only."""
    harris = hud_income(2021, "48201")
    return [{
        "kind": "income_level",
        "q": "What was the 50% of area median income limit for a four-person household in Harris County, Texas in FY2021?",
        "facts": [money_forms(harris["l50_4"])],
        "forbid": [str(harris["median"])],
    }]


def quarter_mean_questions():
    """Quarter means of the weekly survey, said at its two decimals (and said to be means)."""
    q1 = [v for _, v in in_span(PMMS30, "2024-01-01", "2024-03-31")]
    q4 = [v for _, v in in_span(PMMS30, "2023-10-01", "2023-12-31")]
    m1, m4 = sum(q1) / len(q1), sum(q4) / len(q4)
    return [{
        "kind": "quarter_mean",
        "q": "How did the 30-year rate in Q1 2024 compare with Q4 2023?",
        "facts": [[f"{m1:.2f}%"], [f"{m4:.2f}%"], ["mean"]],
        "forbid": [f"{m1:.3f}%", f"{m4:.3f}%"],
    }]


def questions():
    groups = [
        survey_questions,
        move_questions,
        since_questions,
        place_questions,
        source_questions,
        ago_questions,
        default_questions,
        within_questions,
        same_name_questions,
        survey_day_questions,
        share_threshold_questions,
        count_names_questions,
        percent_of_total_questions,
        several_places_questions,
        two_codes_questions,
        premise_questions,
        same_quarter_questions,
        metro_questions,
        multi_day_questions,
        calendar_questions,
        impossible_day_questions,
        fomc_history_questions,
        fomc_unheld_questions,
        pick_questions,
        nmdb_questions,
        income_questions,
        independent_part_questions,
        streak_questions,
        extremes_then_questions,
        holiday_offset_questions,
        year_earlier_questions,
        records_questions,
        level_count_questions,
        count_premise_questions,
        after_event_questions,
        income_level_questions,
        quarter_mean_questions,
    ]
    return [question for group in groups for question in group()]


if __name__ == "__main__":
    built = questions()
    text = json.dumps(built, indent=1) + "\n"
    if "--write" in sys.argv:
        with open(os.path.join(HERE, "ask-classes.json"), "w") as handle:
            handle.write(text)
    print(text if "--json" in sys.argv else f"{len(built)} questions, {sum(len(q['facts']) + len(q.get('forbid', [])) for q in built)} facts")
