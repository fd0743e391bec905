module cordillera

go 1.26.8
