# Parses a Prometheus exposition read from stdin with the Prometheus project's Python client and prints what it found
# as JSON: {"families": [{"name", "type", "samples": [{"name", "labels", "value"}]}]}. Argument: "text" (format 0.0.4)
# or "openmetrics". A body the parser refuses exits non-zero with its message.
import json
import sys

fmt = sys.argv[1] if len(sys.argv) > 1 else "text"
body = sys.stdin.read()
if fmt == "openmetrics":
    from prometheus_client.openmetrics.parser import text_string_to_metric_families
else:
    from prometheus_client.parser import text_string_to_metric_families
families = []
for f in text_string_to_metric_families(body):
    families.append({"name": f.name, "type": f.type,
                     "samples": [{"name": s.name, "labels": dict(s.labels), "value": s.value} for s in f.samples]})
json.dump({"families": families}, sys.stdout)
