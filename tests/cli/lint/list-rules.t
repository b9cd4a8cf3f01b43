# --list-rules: id, severity, default, what --strict makes it, family and summary of every rule
args: lint --list-rules
exit: 0
--- stdout-grep
^rule +severity +default +strict +family +summary$
^misplaced-key +error +on +- +placement +a key madengine ignores
^unknown-key +warning +off +- +placement
^no-network-interface +warning +on +error +network
^image-tag +warning +on +error +images
^secret-pattern +error +on +- +secrets
^suite-unfilled-placeholder +error +on +- +suite +a \{NAME\}
--- stderr
