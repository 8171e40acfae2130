# summary of an empty store: the header and no rows, in each format.
cp data/core/empty.db trace.db && chmod u+w trace.db || exit 99
trace-query -F csv summary
trace-query -F json summary
trace-query -F table summary
