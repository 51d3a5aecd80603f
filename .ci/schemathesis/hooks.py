"""Schemathesis hooks for the CI run against signalwatch's own OpenAPI document.

None of them disables or weakens a check. They state what the document cannot, each a rule the
operation's description gives; they run in `before_call`, just before each request is sent, so
they reach every phase's cases (the coverage phase runs no `map_*` hook):

- Sums. A bulk removal takes 1 to 500 entries in all (values and ids together), which the
  description says and no schema keyword can; a generated body over it is cut to 500.
- Ranges. A list's `*_min`/`*_max` pair (and `dateFrom`/`dateTo`, `funding_date_from`/
  `funding_date_to`) must not contradict itself: the parameter descriptions say a minimum over
  its maximum is a 400, but OpenAPI cannot tie two parameters together, so a generated pair is
  put in order (the values drawn are kept).
- Team limits. A team has at most 20 monitors, 10 active webhooks and 1,000 targets. Before a
  request that could pass one of them, the oldest resources the request does not name are
  deleted, so every case starts from a team under its limits, as a fresh team would.
- Retry windows. `since` of a retry of failed deliveries must be at most 14 days ago; a
  generated date-time is moved to yesterday (other strings are sent as drawn).
- CSV uploads. A CSV needs a header naming a company's name, website or LinkedIn page, and no
  row longer than its header; a generated CSV whose header names none gets a `company_name`
  column first, valued in every row that is not blank (a file of only a header gets a row), and
  a header shorter than a row gets more columns. A company's name, website or LinkedIn URL holds
  no NUL character (the request body's description says so): NUL characters drawn into a CSV
  are left out (the JSON body's schema states the same rule with a pattern).
- Webhook endpoints. Generated webhook URLs name hosts anywhere on the internet; the run must
  send traffic only to this machine, so a URL the document accepts is pointed at a local port
  where nothing listens (the server runs with private webhooks allowed).

The server's base URL and API key come from SIGNALWATCH_ST_BASE and SIGNALWATCH_ST_KEY.
"""

import os
import re
from datetime import date, datetime, timedelta, timezone

import requests
import schemathesis

BASE = os.environ.get("SIGNALWATCH_ST_BASE", "http://127.0.0.1:8080")
AUTH = {"Authorization": "Bearer " + os.environ.get("SIGNALWATCH_ST_KEY", "")}
API = BASE + "/api/v2"
LOCAL_ENDPOINT = "http://127.0.0.1:9/schemathesis"

RANGES = [
    ("dateFrom", "dateTo"),
    ("funding_date_from", "funding_date_to"),
    ("employee_count_min", "employee_count_max"),
    ("founded_year_min", "founded_year_max"),
    ("amount_min", "amount_max"),
    ("ticket_size_min", "ticket_size_max"),
]

UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")


def _day(value):
    """The UTC day of a date or RFC 3339 timestamp, or None when it is neither."""
    if not isinstance(value, str):
        return None
    try:
        if len(value) == 10:
            return date.fromisoformat(value)
        moment = datetime.fromisoformat(value.replace("z", "Z").replace("Z", "+00:00"))
        if moment.tzinfo is None:
            return None
        return moment.astimezone(timezone.utc).date()
    except (TypeError, ValueError, OverflowError):
        return None


def _number(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _order_ranges(query):
    """Puts each generated minimum/maximum pair in order (the values drawn are kept)."""
    if not isinstance(query, dict):
        return query
    for low, high in RANGES:
        if low not in query or high not in query:
            continue
        read = _day if low in ("dateFrom", "funding_date_from") else _number
        a, b = read(query[low]), read(query[high])
        if a is not None and b is not None and a > b:
            query[low], query[high] = query[high], query[low]
    return query


# The document's form of a webhook URL, read from the document itself: only such a URL (one the
# server takes) is pointed at this machine; any other string is sent as drawn, for the server to
# refuse.
_webhook_url = []


def _local_url(value):
    if not _webhook_url:
        doc = requests.get(API + "/openapi.json", timeout=30).json()
        pattern = doc["components"]["schemas"]["CreateWebhookBody"]["properties"]["endpoint_url"]
        _webhook_url.append(re.compile(pattern["pattern"]))
    return isinstance(value, str) and _webhook_url[0].match(value) is not None


def _fit_body(body):
    """Webhook URLs pointed at this machine, and bulk removals kept within 500 entries."""
    if not isinstance(body, dict):
        return body
    for field in ("endpoint_url", "webhook_url", "webhookUrl"):
        if _local_url(body.get(field)):
            body[field] = LOCAL_ENDPOINT
    # A bulk removal takes 1 to 500 entries in all, values and ids together.
    targets, ids = body.get("targets"), body.get("target_ids")
    if isinstance(targets, list) and isinstance(ids, list) and len(targets) + len(ids) > 500:
        body["target_ids"] = ids[: max(0, 500 - len(targets))]
    return body


RFC3339 = re.compile(
    r"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$"
)


def _recent_since(body):
    """A date-time `since` moved into the last 14 days (older is a 400 the schema cannot state)."""
    since = body.get("since")
    if isinstance(since, str) and RFC3339.match(since):
        body["since"] = (datetime.now(timezone.utc) - timedelta(days=1)).isoformat()
    return body


IDENTIFIERS = {"companyname", "name", "websiteurl", "website", "domain", "linkedinurl",
               "linkedin", "companylinkedinurl"}


def _normalized(header):
    return "".join(c for c in header.strip().strip('"') if not c.isspace() and c not in "_-").lower()


def _blank(line):
    return all(not cell.strip() for cell in line.split(","))


def _identified_csv(body):
    """A CSV upload made well formed in the ways the schema (a string) cannot state: no NUL, its
    header names a company's name, website or LinkedIn page (else a `company_name` column is put
    first, valued in every row that is not blank: blank rows are skipped by the server and stay
    blank; a header with one and no row that is not blank gets a row of `Acme`), and no row has more fields than the header (else the header gets as many more
    columns, named `st_extra_1`, `st_extra_2`, ...). Fields are counted by commas, so a quoted
    comma may add a column the rows do not fill, which is allowed."""
    lines = body.replace("\x00", "").split("\n")
    if not any(_normalized(cell) in IDENTIFIERS for cell in lines[0].split(",")):
        data = [line if _blank(line) else "Acme," + line for line in lines[1:]]
        if all(_blank(line) for line in data):
            data.append("Acme")
        lines = ["company_name," + lines[0]] + data
    elif all(_blank(line) for line in lines[1:]):
        lines.append(",".join(["Acme"] * len(lines[0].split(","))))
    header = lines[0].rstrip("\r")
    missing = max(len(line.rstrip("\r").split(",")) for line in lines) - len(header.split(","))
    if missing > 0:
        extra = "".join(f",st_extra_{i}" for i in range(1, missing + 1))
        lines[0] = header + extra + lines[0][len(header):]
    return "\n".join(lines)


def _get(path):
    response = requests.get(API + path, headers=AUTH, timeout=30)
    if response.status_code != 200:
        return []
    return response.json().get("data") or []


def _delete(path):
    requests.delete(API + path, headers=AUTH, timeout=30)


def _named_ids(case):
    return {str(v) for v in (case.path_parameters or {}).values() if UUID.match(str(v))}


def _make_room(case):
    """Deletes the oldest monitors and webhooks the request does not name, until the team is
    well under its limits of monitors, active webhooks and targets."""
    keep = _named_ids(case)
    monitors = [m for m in _get("/monitors") if m.get("id") not in keep]
    monitors.sort(key=lambda m: m.get("created_at") or "")
    adding_targets = case.path.endswith("/targets") and case.method.upper() == "POST"
    # Targets count across monitors: adding up to 500 needs every other monitor's targets gone.
    room = 0 if adding_targets else 15
    while len(monitors) > room:
        _delete("/monitors/" + monitors.pop(0)["id"])
    webhooks = [w for w in _get("/webhooks?limit=100") if w.get("id") not in keep]
    webhooks.sort(key=lambda w: w.get("created_at") or "")
    while len(webhooks) > 6:
        webhook = webhooks.pop(0)
        if webhook.get("monitor_id"):
            _delete("/monitors/" + webhook["monitor_id"])
        else:
            _delete("/webhooks/" + webhook["id"])


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    # Here rather than in map_* hooks, which the coverage phase does not run.
    if isinstance(case.query, dict):
        case.query = _order_ranges(case.query)
    case.body = _fit_body(case.body)
    method = case.method.upper()
    path = case.path
    if path.endswith("/deliveries/retry-failed") and isinstance(case.body, dict):
        case.body = _recent_since(case.body)
    if path.endswith("/csv-enrichment") and isinstance(case.body, str):
        case.body = _identified_csv(case.body)
    if path.endswith("/csv-enrichment") and isinstance(case.body, dict):
        upload = case.body.get("file")
        if isinstance(upload, bytes):
            upload = upload.decode("utf-8", "replace")
        if isinstance(upload, str):
            case.body["file"] = _identified_csv(upload)
    changes_monitors = path.startswith("/api/v2/monitors") and method in ("POST", "PUT")
    changes_webhooks = path.startswith("/api/v2/webhooks") and method in ("POST", "PUT")
    if changes_monitors or changes_webhooks:
        _make_room(case)
