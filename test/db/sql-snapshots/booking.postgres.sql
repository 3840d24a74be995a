-- POST /rides/book: the ride and its first notice (rides/booking.repository.ts; on PostgreSQL one statement for every booking of a batch)
-- postgres. Written by test/db/sql-snapshots.test.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites it.

-- insertBookings, one booking, at most 3 open rides
with "booking" as (select *
    from json_populate_recordset(null::rides, $1::json) as "booking"), "ride" as (insert into "rides" ("rider_id", "driver_id", "status", "ride_type", "pickup_location", "drop_location", "pickup_lat", "pickup_lon", "drop_lat", "drop_lon", "pickup_plus_code", "drop_plus_code", "pickup_zone", "pickup_landmark", "drop_landmark", "distance_km", "duration_minutes", "surge_multiplier", "pricing_version", "fare", "payment_mode", "payment_status", "payment_reference", "start_otp", "end_otp", "created_at", "stops", "scheduled_at", "open_slot")
    select "booking"."rider_id", "booking"."driver_id", "booking"."status", "booking"."ride_type", "booking"."pickup_location", "booking"."drop_location", "booking"."pickup_lat", "booking"."pickup_lon", "booking"."drop_lat", "booking"."drop_lon", "booking"."pickup_plus_code", "booking"."drop_plus_code", "booking"."pickup_zone", "booking"."pickup_landmark", "booking"."drop_landmark", "booking"."distance_km", "booking"."duration_minutes", "booking"."surge_multiplier", "booking"."pricing_version", "booking"."fare", "booking"."payment_mode", "booking"."payment_status", "booking"."payment_reference", "booking"."start_otp", "booking"."end_otp", "booking"."created_at", "booking"."stops", "booking"."scheduled_at", "free"."slot"
    from "booking"
    inner join lateral (select "slot"
      from (select coalesce(min(case when open_slot <> nth then nth end), count(*) + 1) as "slot"
        from (select "open_slot", row_number() over (order by open_slot) as "nth"
          from "rides"
          where "rider_id" = "booking"."rider_id"
          and "status" in ('REQUESTED', 'ACCEPTED', 'PICKED')
          and "open_slot" is not null) as "taken") as "first_gap"
      where "slot" <= $2) as "free" on true
    returning "id", "rider_id", "driver_id", "status", "ride_type", "pickup_location", "drop_location", "pickup_lat", "pickup_lon", "drop_lat", "drop_lon", "pickup_plus_code", "drop_plus_code", "pickup_landmark", "drop_landmark", "distance_km", "duration_minutes", "surge_multiplier", "fare", "payment_mode", "payment_status", "payment_reference", "start_otp", "end_otp", "created_at", "accepted_at", "picked_at", "completed_at", "cancelled_at", "driver_lat", "driver_lon", "driver_location_updated_at", "arriving_notified_at", "cancellation_reason", "cancelled_by", "cancellation_fee", "rider_rating", "rider_feedback", "driver_rating", "driver_feedback", "open_slot", "pickup_zone", "first_offer_at", "offer_count", "pickup_distance_km", "no_driver_at", "pricing_version", "refunded_amount", "arrived_at", "trip_distance_km", "trip_last_lat", "trip_last_lon", "charges_total", "trip_charges", "upfront_fare", "fare_breakdown", "driver_penalty", "stops", "scheduled_at", "released_at", "destination_changes", "reminders_sent"), "notice" as (insert into "notifications" ("ride_id", "user_id", "title", "message", "text_name", "text_values", "channel", "event_type", "read", "status", "created_at", "delivered_at")
    select "ride"."id", "notice"."user_id", "notice"."title", "notice"."message", "notice"."text_name", "notice"."text_values", "notice"."channel", "notice"."event_type", "notice"."read", "notice"."status", "notice"."created_at", "notice"."delivered_at"
    from json_populate_recordset(null::notifications, $3::json) as "notice"
    inner join "ride" on "ride"."rider_id" = "notice"."user_id"
    returning "id", "user_id")
  select "ride".*, "notice"."id" as "notice_id"
  from "ride", "notice"
  where "notice"."user_id" = "ride"."rider_id";
-- parameters: ["[{\"rider_id\":7,\"driver_id\":null,\"status\":\"REQUESTED\",\"ride_type\":\"SEDAN\",\"pickup_location\":\"MG Road\",\"drop_location\":\"Indiranagar\",\"pickup_lat\":12.975,\"pickup_lon\":77.606,\"drop_lat\":12.978,\"drop_lon\":77.64,\"pickup_plus_code\":null,\"drop_plus_code\":null,\"pickup_zone\":\"8861892597fffff\",\"pickup_landmark\":null,\"drop_landmark\":null,\"distance_km\":4.8,\"duration_minutes\":14,\"surge_multiplier\":1,\"pricing_version\":1,\"fare\":182,\"payment_mode\":\"CASH\",\"payment_status\":\"PENDING\",\"payment_reference\":null,\"start_otp\":\"1234\",\"end_otp\":\"5678\",\"created_at\":1764000000000,\"stops\":\"[]\",\"scheduled_at\":null}]",3,"[{\"user_id\":7,\"title\":\"Ride requested\",\"message\":\"Looking for a driver\",\"text_name\":\"rideRequested\",\"text_values\":\"{\\\"trip\\\":\\\"unknown\\\",\\\"fare\\\":120}\",\"channel\":\"in_app\",\"event_type\":\"RIDE_REQUESTED\",\"read\":0,\"status\":\"delivered\",\"created_at\":1764000000000,\"delivered_at\":1764000000000}]"]
