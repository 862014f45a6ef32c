-- Economic calendar events (GET /calendar): one row per release or decision, keyed by series and
-- date. `origin` names the source entry that produced the row, so a sync can remove rows that a
-- source it re-read no longer lists without touching rows from sources it could not read.
CREATE TABLE IF NOT EXISTS calendar_events (
  series       text NOT NULL,
  date         date NOT NULL,
  name         text NOT NULL,
  impact       text NOT NULL CHECK (impact IN ('high', 'medium', 'low')),
  category     text NOT NULL CHECK (category IN ('fed', 'inflation', 'employment', 'housing')),
  description  text NOT NULL,
  source_url   text NOT NULL,
  origin       text NOT NULL,
  PRIMARY KEY (series, date)
);

CREATE INDEX IF NOT EXISTS calendar_events_date_idx ON calendar_events (date, name);
