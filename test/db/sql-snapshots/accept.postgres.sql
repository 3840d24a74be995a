-- A driver accepts (POST /drivers/me/offers/{id}/accept, POST /rides/status/{id}): the ride, then its offers, in one unit of work
-- postgres. Written by test/db/sql-snapshots.test.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites it.

-- offers.findOffer: the driver's offer
select *
  from "offers"
  where "id" = $1;
-- parameters: [11]

-- rides.acceptRide: REQUESTED and the driver on no other ride
update "rides"
  set "status" = $1, "driver_id" = $2, "accepted_at" = $3
  where "id" = $4
  and "status" = $5
  and not exists (select "busy"."id"
    from "rides" as "busy"
    where "busy"."driver_id" = $6
    and "busy"."status" in ('ACCEPTED', 'PICKED'))
  returning *;
-- parameters: ["ACCEPTED",2,1764000000000,1,"REQUESTED",2]

-- offers.closeForRide: the winner's offer accepted, the rest withdrawn
update "offers"
  set "status" = $1, "answered_at" = $2
  where "ride_id" = $3
  and "driver_id" = $4
  and "status" = $5
  returning *;
-- parameters: ["accepted",1764000000000,1,2,"pending"]
update "offers"
  set "status" = $1, "answered_at" = $2
  where "status" = $3
  and ("ride_id" = $4
    or "driver_id" = $5)
  returning *;
-- parameters: ["withdrawn",1764000000000,"pending",1,2]

-- rides.setPickupDistance
update "rides"
  set "pickup_distance_km" = $1
  where "id" = $2
  returning *;
-- parameters: [1.2,1]
