from codehop.frontends.launch import main

main()
