# import knows cvs only
args: import madengine x.json
exit: 2
--- stdout
--- stderr
assay import: unknown format 'madengine' (known: cvs)
