#!/usr/bin/env python3
"""Writes COUNT copies of a benchmark statement, each with ':id' replaced by a member drawn uniformly from 0..MEMBERS-1,
one per line and ';'-terminated: the input the native clients of scripts/bench-mariadb-slap.sh and
scripts/bench-sqlite-cli.sh run. TEMPLATE is a file whose first line not starting with '--' is the statement.

Usage: bench-statements.py TEMPLATE MEMBERS OUT [COUNT (default 20000)]"""
import random
import sys

if len(sys.argv) not in (4, 5):
    sys.exit(__doc__)
template, members, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
count = int(sys.argv[4]) if len(sys.argv) == 5 else 20000
statement = next(l for l in open(template) if l.strip() and not l.startswith('--')).strip()
with open(out, 'w') as f:
    for _ in range(count):
        f.write(statement.replace(':id', str(random.randrange(members))) + ';\n')
