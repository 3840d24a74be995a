-- POST /rides/book: the ride and its first notice (rides/booking.repository.ts; on PostgreSQL one statement for every booking of a batch)
-- sqlite. Written by test/db/sql-snapshots.test.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites it.

-- insertBookings, one booking, at most 3 open rides
insert into "rides" ("rider_id", "driver_id", "status", "ride_type", "pickup_location", "drop_location", "pickup_lat", "pickup_lon", "drop_lat", "drop_lon", "pickup_plus_code", "drop_plus_code", "pickup_zone", "pickup_landmark", "drop_landmark", "distance_km", "duration_minutes", "surge_multiplier", "pricing_version", "fare", "payment_mode", "payment_status", "payment_reference", "start_otp", "end_otp", "created_at", "stops", "scheduled_at", "open_slot")
  values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, coalesce(((select "slot"
          from (select coalesce(min(case when open_slot <> nth then nth end), count(*) + 1) as "slot"
            from (select "open_slot", row_number() over (order by open_slot) as "nth"
              from "rides"
              where "rider_id" = ?
              and "status" in ('REQUESTED', 'ACCEPTED', 'PICKED')
              and "open_slot" is not null) as "taken") as "first_gap"
          where "slot" <= ?)), 1))
  returning "id", "rider_id", "driver_id", "status", "ride_type", "pickup_location", "drop_location", "pickup_lat", "pickup_lon", "drop_lat", "drop_lon", "pickup_plus_code", "drop_plus_code", "pickup_landmark", "drop_landmark", "distance_km", "duration_minutes", "surge_multiplier", "fare", "payment_mode", "payment_status", "payment_reference", "start_otp", "end_otp", "created_at", "accepted_at", "picked_at", "completed_at", "cancelled_at", "driver_lat", "driver_lon", "driver_location_updated_at", "arriving_notified_at", "cancellation_reason", "cancelled_by", "cancellation_fee", "rider_rating", "rider_feedback", "driver_rating", "driver_feedback", "open_slot", "pickup_zone", "first_offer_at", "offer_count", "pickup_distance_km", "no_driver_at", "pricing_version", "refunded_amount", "arrived_at", "trip_distance_km", "trip_last_lat", "trip_last_lon", "charges_total", "trip_charges", "upfront_fare", "fare_breakdown", "driver_penalty", "stops", "scheduled_at", "released_at", "destination_changes", "reminders_sent";
-- parameters: [7,null,"REQUESTED","SEDAN","MG Road","Indiranagar",12.975,77.606,12.978,77.64,null,null,"8861892597fffff",null,null,4.8,14,1,1,182,"CASH","PENDING",null,"1234","5678",1764000000000,"[]",null,7,3]
insert into "notifications" ("user_id", "title", "message", "text_name", "text_values", "channel", "event_type", "read", "status", "created_at", "delivered_at", "ride_id")
  values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  returning "id";
-- parameters: [7,"Ride requested","Looking for a driver","rideRequested","{\"trip\":\"unknown\",\"fare\":120}","in_app","RIDE_REQUESTED",0,"delivered",1764000000000,1764000000000,1]
