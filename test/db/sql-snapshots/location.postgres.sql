-- Driver positions (PUT /drivers/me/location, POST /rides/location/{id}, the socket): presence rows in batches, the ride read for its rider
-- postgres. Written by test/db/sql-snapshots.test.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites it.

-- drivers.upsertPresence: one driver
insert into "driver_presence" ("driver_id", "lat", "lon", "updated_at", "online")
  values ($1, $2, $3, $4, $5)
  on conflict ("driver_id")
  do update
  set "lat" = "excluded"."lat", "lon" = "excluded"."lon", "updated_at" = "excluded"."updated_at", "online" = "excluded"."online"
  where "driver_presence"."updated_at" <= "excluded"."updated_at";
-- parameters: [2,12.97,77.6,1764000000000,1]

-- drivers.upsertPresence: three drivers (a chunk of two, then one)
insert into "driver_presence" ("driver_id", "lat", "lon", "updated_at", "online")
  values ($1, $2, $3, $4, $5), ($6, $7, $8, $9, $10)
  on conflict ("driver_id")
  do update
  set "lat" = "excluded"."lat", "lon" = "excluded"."lon", "updated_at" = "excluded"."updated_at", "online" = "excluded"."online"
  where "driver_presence"."updated_at" <= "excluded"."updated_at";
-- parameters: [2,12.97,77.6,1764000000000,1,3,12.97,77.6,1764000000000,1]
insert into "driver_presence" ("driver_id", "lat", "lon", "updated_at", "online")
  values ($1, $2, $3, $4, $5)
  on conflict ("driver_id")
  do update
  set "lat" = "excluded"."lat", "lon" = "excluded"."lon", "updated_at" = "excluded"."updated_at", "online" = "excluded"."online"
  where "driver_presence"."updated_at" <= "excluded"."updated_at";
-- parameters: [4,12.97,77.6,1764000000000,1]

-- rides.findRideSnapshot: the ride a position is for (cached ≤ 5 s)
select "id", "status", "rider_id", "driver_id", "fare", "created_at", "accepted_at", "driver_lat", "driver_lon", "driver_location_updated_at", "pickup_lat", "pickup_lon", "drop_lat", "drop_lon", "arriving_notified_at", "stops"
  from "rides"
  where "id" = $1;
-- parameters: [1]

-- rides.claimArrivingNotice: the one DRIVER_ARRIVING notice
update "rides"
  set "arriving_notified_at" = $1
  where "id" = $2
  and "status" = $3
  and "arriving_notified_at" is null;
-- parameters: [1764000000000,1,"ACCEPTED"]
