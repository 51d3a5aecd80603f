-- Teams, their users and API keys; companies and people; monitors, their webhooks and targets.
-- Ids are TEXT UUIDs; times are epoch milliseconds (BIGINT); lists are JSON text.

CREATE TABLE teams (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    credits BIGINT NOT NULL DEFAULT 0,
    subscription_status TEXT NOT NULL,
    rate_limit_per_minute BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE TABLE users (
    id TEXT PRIMARY KEY,
    team_id TEXT NOT NULL REFERENCES teams (id),
    email TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX users_team ON users (team_id);

CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    key_hash TEXT NOT NULL UNIQUE,
    team_id TEXT NOT NULL REFERENCES teams (id),
    user_id TEXT NOT NULL REFERENCES users (id),
    created_at BIGINT NOT NULL,
    revoked_at BIGINT
);

CREATE TABLE companies (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    slug TEXT,
    description TEXT,
    website TEXT,
    domain TEXT,
    registrable_domain TEXT,
    linkedin_url TEXT,
    linkedin_key TEXT,
    twitter_url TEXT,
    logo_url TEXT,
    industry TEXT,
    subcategory TEXT,
    founded_year BIGINT,
    headquarters_country TEXT,
    employee_count BIGINT,
    categories TEXT NOT NULL DEFAULT '[]',
    keywords TEXT NOT NULL DEFAULT '[]',
    specialties TEXT NOT NULL DEFAULT '[]',
    growth_info TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX companies_domain ON companies (domain);
CREATE INDEX companies_registrable_domain ON companies (registrable_domain);
CREATE INDEX companies_linkedin_key ON companies (linkedin_key);

CREATE TABLE people (
    id TEXT PRIMARY KEY,
    linkedin_key TEXT NOT NULL UNIQUE,
    linkedin_url TEXT NOT NULL,
    name TEXT,
    title TEXT,
    location TEXT,
    city TEXT,
    country TEXT,
    company_id TEXT REFERENCES companies (id),
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX people_company ON people (company_id);

CREATE TABLE monitors (
    id TEXT PRIMARY KEY,
    team_id TEXT NOT NULL REFERENCES teams (id),
    created_by TEXT NOT NULL REFERENCES users (id),
    name TEXT NOT NULL,
    signal_types TEXT NOT NULL,
    active BOOLEAN NOT NULL,
    webhook_id TEXT,
    last_delivery_at BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX monitors_team ON monitors (team_id, created_at);

-- Webhook subscriptions: standalone ones (monitor_id NULL) and those owned by a monitor.
-- A monitor's replaced or detached subscription is retired (retired_at set) and keeps its history.
CREATE TABLE webhooks (
    id TEXT PRIMARY KEY,
    team_id TEXT NOT NULL REFERENCES teams (id),
    monitor_id TEXT,
    endpoint_url TEXT NOT NULL,
    secret TEXT NOT NULL,
    event_types TEXT NOT NULL,
    filters TEXT NOT NULL DEFAULT '{}',
    active BOOLEAN NOT NULL,
    retired_at BIGINT,
    last_modified_by TEXT,
    last_modified_via TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX webhooks_team ON webhooks (team_id, created_at);
CREATE INDEX webhooks_monitor ON webhooks (monitor_id);

CREATE TABLE targets (
    id TEXT PRIMARY KEY,
    monitor_id TEXT NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
    team_id TEXT NOT NULL REFERENCES teams (id),
    kind TEXT NOT NULL,
    value TEXT NOT NULL,
    registrable_domain TEXT,
    company_id TEXT REFERENCES companies (id),
    resolved_at BIGINT,
    created_at BIGINT NOT NULL,
    UNIQUE (monitor_id, value)
);
CREATE INDEX targets_team ON targets (team_id);
CREATE INDEX targets_company ON targets (company_id);
CREATE INDEX targets_value ON targets (value);
CREATE INDEX targets_registrable_domain ON targets (registrable_domain);
CREATE INDEX targets_monitor_created ON targets (monitor_id, created_at);

-- One row per company a signal concerns (both sides of an acquisition, both companies of a job
-- change). Feeds monitor statistics, a target's latest signal and delivery fan-out.
CREATE TABLE signal_companies (
    signal_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    company_id TEXT NOT NULL,
    occurred_at BIGINT NOT NULL,
    PRIMARY KEY (signal_id, company_id)
);
CREATE INDEX signal_companies_company ON signal_companies (company_id, occurred_at);
