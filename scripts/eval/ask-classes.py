#!/usr/bin/env python3
"""Development questions for the built-in reader's classes of phrasing (a date as a survey week, the
biggest move one way or either, a change from the first figure of a period, two places or two sources
side by side, "a year ago" as a date, a rate with no state or tier, a change within one past period,
a county name several states share, a daily index beside the survey on a named week). Every fact is computed here from
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
    ]
    return [question for group in groups for question in group()]


if __name__ == "__main__":
    built = questions()
    text = json.dumps(built, indent=1) + "\n"
    if "--write" in sys.argv:
        with open(os.path.join(HERE, "ask-classes.json"), "w") as handle:
            handle.write(text)
    print(text if "--json" in sys.argv else f"{len(built)} questions, {sum(len(q['facts']) + len(q.get('forbid', [])) for q in built)} facts")
