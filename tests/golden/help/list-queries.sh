trace-query -l
