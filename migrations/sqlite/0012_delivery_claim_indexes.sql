-- The worker claims each webhook's oldest due deliveries, up to the webhook's free request slots:
-- a seek per webhook instead of a walk along every pending row in time order (which, with the
-- busiest webhooks at their cap or a team out of credits, read the whole backlog per claim).
CREATE INDEX deliveries_due_webhook ON deliveries (webhook_id, next_attempt_at)
    WHERE status = 'pending';

-- Free deliveries (test events and their replays) go out whatever the team's credits: found
-- apart, so a held team's backlog is not read to look for them.
CREATE INDEX deliveries_due_free ON deliveries (next_attempt_at)
    WHERE status = 'pending' AND free = 1;
