# perl limits.pl NAME > FILE: write the absurd input NAME for
# tests/reliability/limits.
use strict;
use warnings;

# A protobuf varint, and a length-delimited field.
sub vi {
	my ($n) = @_;
	my $s = "";
	while ($n >= 128) {
		$s .= chr(($n & 127) | 128);
		$n = int($n / 128);
	}
	return $s . chr($n);
}
sub fld {
	my ($f, $b) = @_;
	return vi(($f << 3) | 2) . vi(length $b) . $b;
}

my $w = shift or die "usage: limits.pl NAME\n";
my $go119 = "go 1.19 trace\0\0\0";
my $go123 = "go 1.23 trace\0\0\0";
my $deep = 100000;
binmode STDOUT;
if ($w eq "pprof-10g") {
	# Profile.string_table (field 6) declaring 10 GB, with 3 bytes.
	print vi((6 << 3) | 2), vi(10_000_000_000), "abc";
} elsif ($w eq "pprof-varint20") {
	print vi((6 << 3) | 2), "\xff" x 19, "\x01", "abc";
} elsif ($w eq "pprof-deep.pb") {
	# One sample whose stack is location 1 a million times.
	my $sample = fld(1, "\x01" x 1_000_000) . fld(2, vi(1));
	print fld(1, vi(1 << 3) . vi(1) . vi(2 << 3) . vi(2)),
	    fld(2, $sample),
	    fld(4, vi(1 << 3) . vi(1) . fld(4, vi(1 << 3) . vi(1))),
	    fld(5, vi(1 << 3) . vi(1) . vi(2 << 3) . vi(3)),
	    join("", map { fld(6, $_) } ("", "samples", "count", "f"));
} elsif ($w eq "gotrace-10g") {
	# EvString (37): id 1, length 10 GB.
	print $go119, chr(37), vi(1), vi(10_000_000_000), "abc";
} elsif ($w eq "gotrace-varint20") {
	print $go119, chr(37), "\xff" x 19, "\x01";
} elsif ($w eq "gotrace2-10g") {
	# EvEventBatch (1): generation, M, time, then a size of 10 GB.
	print $go123, chr(1), vi(1), vi(1), vi(1), vi(10_000_000_000), "abc";
} elsif ($w eq "gotrace2-varint20") {
	print $go123, chr(1), "\xff" x 19, "\x01";
} elsif ($w eq "clock-deep.json") {
	print '{"tracekit_clock": 1, "pairs": ', "[" x $deep, "]" x $deep,
	    "}\n";
} elsif ($w eq "nvtop-deep.json") {
	print "[\n  {\n    \"device_name\": ", "[" x $deep, "]" x $deep,
	    "\n  }\n]\n";
} elsif ($w eq "perf-deep.txt") {
	print "prog 1/1 [000] 1.000000: 1 cpu-clock:\n";
	for my $i (0 .. 999_999) {
		printf "\t%x f%d (/bin/prog)\n", 4096 + $i % 4096, $i % 1000;
	}
	print "\n";
} else {
	die "limits.pl: unknown input '$w'\n";
}
