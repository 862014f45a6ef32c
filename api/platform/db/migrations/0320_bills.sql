-- Tracked congressional bills: status, sponsor, cosponsors, committees, actions and summary synced
-- from GovInfo BILLSTATUS XML or the congress.gov API v3, beside our own analysis (content/bills).
CREATE TABLE IF NOT EXISTS bills (
  bill_id             text PRIMARY KEY,
  congress            integer NOT NULL,
  bill_type           text NOT NULL,
  bill_number         integer NOT NULL,
  title               text NOT NULL,
  short_title         text NOT NULL,
  official_title      text,
  status              text NOT NULL,
  status_label        text NOT NULL,
  introduced_date     date,
  latest_action_date  date NOT NULL,
  latest_action_text  text NOT NULL,
  update_date         timestamptz,
  as_of               date NOT NULL,
  sponsor             jsonb,
  sponsor_name        text,
  cosponsor_count     integer NOT NULL DEFAULT 0,
  cosponsors          jsonb NOT NULL DEFAULT '[]'::jsonb,
  committees          jsonb NOT NULL DEFAULT '[]'::jsonb,
  actions             jsonb NOT NULL DEFAULT '[]'::jsonb,
  titles              jsonb NOT NULL DEFAULT '[]'::jsonb,
  subjects            jsonb NOT NULL DEFAULT '[]'::jsonb,
  laws                jsonb NOT NULL DEFAULT '[]'::jsonb,
  policy_area         text,
  summary             jsonb,
  summary_text        text,
  topics              jsonb NOT NULL DEFAULT '[]'::jsonb,
  why_we_track        text NOT NULL,
  analysis            text NOT NULL,
  govinfo_url         text NOT NULL,
  congress_url        text NOT NULL,
  source_url          text NOT NULL,
  source_format       text NOT NULL,
  content_hash        text NOT NULL,
  synced_at           timestamptz NOT NULL DEFAULT now(),
  -- Title and our label weigh most, then the official title, policy area, sponsor and our topics, then the
  -- official summary and our analysis.
  search_vector       tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', coalesce(title, '') || ' ' || coalesce(short_title, '')), 'A') ||
    setweight(to_tsvector('english', coalesce(official_title, '') || ' ' || coalesce(policy_area, '') || ' ' ||
      coalesce(sponsor_name, '') || ' ' || translate(topics::text, '[]",', '    ')), 'B') ||
    setweight(to_tsvector('english', coalesce(summary_text, '') || ' ' || coalesce(analysis, '')), 'C')
  ) STORED
);

CREATE INDEX IF NOT EXISTS bills_search_idx ON bills USING gin (search_vector);
CREATE INDEX IF NOT EXISTS bills_status_idx ON bills (status);
