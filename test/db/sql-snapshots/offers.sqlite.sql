-- Dispatch rounds and offers: what a round reads, the offer it writes, and the driver's answers
-- sqlite. Written by test/db/sql-snapshots.test.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites it.

-- rides.listDispatchable: the open requests of a round
select "id", "rider_id", "ride_type", "fare", "pickup_lat", "pickup_lon", "pickup_zone", "created_at", "released_at"
  from "rides"
  where "status" = ?
  and "no_driver_at" is null
  and "pickup_lat" is not null
  and ("scheduled_at" is null
    or "released_at" is not null)
  order by "id"
  limit ?;
-- parameters: ["REQUESTED",500]

-- offers.refusals: who declined or let an offer expire
select "ride_id", "driver_id"
  from "offers"
  where "ride_id" in (?, ?)
  and "status" in (?, ?);
-- parameters: [1,2,"declined","expired"]

-- rides.busyDriversAmong: drivers on a ride
select "driver_id"
  from "rides"
  where "driver_id" in (?, ?)
  and "status" in ('ACCEPTED', 'PICKED');
-- parameters: [2,3]

-- offers.offeredAmong: drivers holding an offer
select "driver_id"
  from "offers"
  where "driver_id" in (?, ?)
  and "status" = ?;
-- parameters: [2,3,"pending"]

-- offers.insertOffer: the offer copies and (PostgreSQL) locks its ride
insert into "offers" ("ride_id", "driver_id", "status", "ride_type", "fare", "pickup_location", "drop_location", "pickup_lat", "pickup_lon", "drop_lat", "drop_lon", "pickup_distance_km", "pickup_eta_minutes", "created_at", "expires_at")
  select "rides"."id", cast(? as integer) as "driver_id", 'pending' as "status", "rides"."ride_type", "rides"."fare", "rides"."pickup_location", "rides"."drop_location", "rides"."pickup_lat", "rides"."pickup_lon", "rides"."drop_lat", "rides"."drop_lon", cast(? as double precision) as "pickup_distance_km", cast(? as integer) as "pickup_eta_minutes", cast(? as bigint) as "created_at", cast(? as bigint) as "expires_at"
  from "rides"
  where "rides"."id" = ?
  and "rides"."status" = ?
  and "rides"."pickup_lat" is not null
  and not exists (select "busy"."id"
    from "rides" as "busy"
    where "busy"."driver_id" = ?
    and "busy"."status" in (?, ?))
  returning *;
-- parameters: [2,1.2,4,1764000000000,1764000015000,1,"REQUESTED",2,"ACCEPTED","PICKED"]

-- rides.countOffer
update "rides"
  set "first_offer_at" = coalesce("first_offer_at", ?), "offer_count" = coalesce("offer_count", ?) + ?
  where "id" = ?;
-- parameters: [1764000000000,0,1,1]

-- offers.pendingForDriver: GET /drivers/me/offers
select *
  from "offers"
  where "driver_id" = ?
  and "status" = ?
  order by "id" desc;
-- parameters: [2,"pending"]

-- offers.decline
update "offers"
  set "status" = ?, "decline_reason" = ?, "answered_at" = ?
  where "id" = ?
  and "driver_id" = ?
  and "status" = ?
  returning *;
-- parameters: ["declined","too far",1764000000000,11,2,"pending"]

-- offers.expireDue: offers whose time ran out
update "offers"
  set "status" = ?, "answered_at" = ?
  where "status" = ?
  and "expires_at" <= ?
  returning *;
-- parameters: ["expired",1764000000000,"pending",1764000000000]
