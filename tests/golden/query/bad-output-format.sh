# An unknown -F is a usage error (exit 2).
trace-query -F xml summary
