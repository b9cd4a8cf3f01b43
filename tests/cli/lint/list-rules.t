# --list-rules: id, severity, default, family and summary of every rule
args: lint --list-rules
exit: 0
--- stdout-grep
^rule +severity +default +family +summary$
^misplaced-key +error +on +placement +a key madengine ignores
^unknown-key +warning +off +placement
^secret-pattern +error +on +secrets
^suite-unfilled-placeholder +error +on +suite +a \{NAME\}
--- stderr
