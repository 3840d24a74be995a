-- A driver accepts (POST /drivers/me/offers/{id}/accept, POST /rides/status/{id}): the ride, then its offers, in one unit of work
-- sqlite. Written by test/db/sql-snapshots.test.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites it.

-- offers.findOffer: the driver's offer
select *
  from "offers"
  where "id" = ?;
-- parameters: [11]

-- rides.acceptRide: REQUESTED and the driver on no other ride
update "rides"
  set "status" = ?, "driver_id" = ?, "accepted_at" = ?
  where "id" = ?
  and "status" = ?
  and not exists (select "busy"."id"
    from "rides" as "busy"
    where "busy"."driver_id" = ?
    and "busy"."status" in ('ACCEPTED', 'PICKED'))
  returning *;
-- parameters: ["ACCEPTED",2,1764000000000,1,"REQUESTED",2]

-- offers.closeForRide: the winner's offer accepted, the rest withdrawn
update "offers"
  set "status" = ?, "answered_at" = ?
  where "ride_id" = ?
  and "driver_id" = ?
  and "status" = ?
  returning *;
-- parameters: ["accepted",1764000000000,1,2,"pending"]
update "offers"
  set "status" = ?, "answered_at" = ?
  where "status" = ?
  and ("ride_id" = ?
    or "driver_id" = ?)
  returning *;
-- parameters: ["withdrawn",1764000000000,"pending",1,2]

-- rides.setPickupDistance
update "rides"
  set "pickup_distance_km" = ?
  where "id" = ?
  returning *;
-- parameters: [1.2,1]
