#!/usr/bin/env python3
"""Every <testcase> name of a junit.xml is distinct (CI systems key per-test
history on it); prints the repeated ones.   junit-names.py JUNIT_XML"""
import collections
import sys
import xml.etree.ElementTree as ET

names = [t.get("name") for t in ET.parse(sys.argv[1]).iter("testcase")]
dup = {n: k for n, k in collections.Counter(names).items() if k > 1}
if dup or not names:
    print(f"{len(names)} testcases, {len(set(names))} distinct names; repeated: {dup}")
    sys.exit(1)
