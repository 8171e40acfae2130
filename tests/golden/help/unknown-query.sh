trace-query nosuch
