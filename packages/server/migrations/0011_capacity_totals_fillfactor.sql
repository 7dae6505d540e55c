-- A hot slot updates its capacity_totals row with every finalized order, and an update leaves
-- the old row version behind in the same page (a HOT chain) until the page is pruned, which
-- PostgreSQL does when the page looks full. Every read of the total walks that chain. With 10 %
-- fill, a page counts as full after a few versions, so pruning comes early and chains stay short.
-- The table holds one small row per booked slot, so the extra space is small. Measured: hot slot
-- 711/724 vs 687/646 orders/s (bench/booking.ts, two interleaved pairs): within the machine's noise,
-- so this rests on the mechanism more than on the figure.
ALTER TABLE capacity_totals SET (fillfactor = 10);
