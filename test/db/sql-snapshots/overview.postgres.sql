-- GET /admin/overview: counts from indexed ranges, never a scan of every ride
-- postgres. Written by test/db/sql-snapshots.test.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites it.

-- stats.bookedSince: today's rides per status and completed fares
select coalesce(sum(case when "status" = $1 then 1 else 0 end), 0) as "REQUESTED", coalesce(sum(case when "status" = $2 then 1 else 0 end), 0) as "ACCEPTED", coalesce(sum(case when "status" = $3 then 1 else 0 end), 0) as "PICKED", coalesce(sum(case when "status" = $4 then 1 else 0 end), 0) as "COMPLETED", coalesce(sum(case when "status" = $5 then 1 else 0 end), 0) as "CANCELLED", coalesce(sum(case when "status" = $6 then "fare" else 0 end), 0) as "completed_fares"
  from "rides"
  where "created_at" >= $7;
-- parameters: ["REQUESTED","ACCEPTED","PICKED","COMPLETED","CANCELLED","COMPLETED",1763996400000]

-- stats.waitsSince: the last hour's accept and pickup waits
select count(*) as "rides", avg(accepted_at - created_at) as "mean"
  from "rides"
  where "accepted_at" >= $1;
-- parameters: [1763996400000]
select count(*) as "rides", avg(picked_at - accepted_at) as "mean"
  from "rides"
  where "picked_at" >= $1;
-- parameters: [1763996400000]

-- stats.openRequests
select count(*) as "rides", count(distinct "rider_id") as "riders"
  from "rides"
  where "status" = $1
  and ("scheduled_at" is null
    or "released_at" is not null);
-- parameters: ["REQUESTED"]

-- stats.countBusyDrivers
select count(*) as "count"
  from "rides"
  where "status" in ('ACCEPTED', 'PICKED');
-- parameters: []

-- drivers.countOnlineSince
select count(*) as "drivers"
  from "driver_presence"
  where "updated_at" >= $1
  and "online" = $2;
-- parameters: [1763999880000,1]

-- payments.completedSince
select count(*) as "count", coalesce(sum("amount"), 0) as "paise"
  from "payment_sessions"
  where "status" = $1
  and "updated_at" >= $2;
-- parameters: ["completed",1763996400000]
