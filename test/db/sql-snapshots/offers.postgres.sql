-- Dispatch rounds and offers: what a round reads, the offer it writes, and the driver's answers
-- postgres. Written by test/db/sql-snapshots.test.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites it.

-- rides.listDispatchable: the open requests of a round
select "id", "rider_id", "ride_type", "fare", "pickup_lat", "pickup_lon", "pickup_zone", "created_at", "released_at"
  from "rides"
  where "status" = $1
  and "no_driver_at" is null
  and "pickup_lat" is not null
  and ("scheduled_at" is null
    or "released_at" is not null)
  order by "id"
  limit $2;
-- parameters: ["REQUESTED",500]

-- offers.refusals: who declined or let an offer expire
select "ride_id", "driver_id"
  from "offers"
  where "ride_id" in ($1, $2)
  and "status" in ($3, $4);
-- parameters: [1,2,"declined","expired"]

-- rides.busyDriversAmong: drivers on a ride
select "driver_id"
  from "rides"
  where "driver_id" in ($1, $2)
  and "status" in ('ACCEPTED', 'PICKED');
-- parameters: [2,3]

-- offers.offeredAmong: drivers holding an offer
select "driver_id"
  from "offers"
  where "driver_id" in ($1, $2)
  and "status" = $3;
-- parameters: [2,3,"pending"]

-- offers.insertOffer: the offer copies and (PostgreSQL) locks its ride
insert into "offers" ("ride_id", "driver_id", "status", "ride_type", "fare", "pickup_location", "drop_location", "pickup_lat", "pickup_lon", "drop_lat", "drop_lon", "pickup_distance_km", "pickup_eta_minutes", "created_at", "expires_at")
  select "rides"."id", cast($1 as integer) as "driver_id", 'pending' as "status", "rides"."ride_type", "rides"."fare", "rides"."pickup_location", "rides"."drop_location", "rides"."pickup_lat", "rides"."pickup_lon", "rides"."drop_lat", "rides"."drop_lon", cast($2 as double precision) as "pickup_distance_km", cast($3 as integer) as "pickup_eta_minutes", cast($4 as bigint) as "created_at", cast($5 as bigint) as "expires_at"
  from "rides"
  where "rides"."id" = $6
  and "rides"."status" = $7
  and "rides"."pickup_lat" is not null
  and not exists (select "busy"."id"
    from "rides" as "busy"
    where "busy"."driver_id" = $8
    and "busy"."status" in ($9, $10))
  for update of "rides"
  returning *;
-- parameters: [2,1.2,4,1764000000000,1764000015000,1,"REQUESTED",2,"ACCEPTED","PICKED"]

-- rides.countOffer
update "rides"
  set "first_offer_at" = coalesce("first_offer_at", $1), "offer_count" = coalesce("offer_count", $2) + $3
  where "id" = $4;
-- parameters: [1764000000000,0,1,1]

-- offers.pendingForDriver: GET /drivers/me/offers
select *
  from "offers"
  where "driver_id" = $1
  and "status" = $2
  order by "id" desc;
-- parameters: [2,"pending"]

-- offers.decline
update "offers"
  set "status" = $1, "decline_reason" = $2, "answered_at" = $3
  where "id" = $4
  and "driver_id" = $5
  and "status" = $6
  returning *;
-- parameters: ["declined","too far",1764000000000,11,2,"pending"]

-- offers.expireDue: offers whose time ran out
update "offers"
  set "status" = $1, "answered_at" = $2
  where "status" = $3
  and "expires_at" <= $4
  returning *;
-- parameters: ["expired",1764000000000,"pending",1764000000000]
