


€‡§	
@ 
€­â	

€ÚÄ	€€€€€À(08@HP" €""" À€"ú"	°à€*
 (* *
 (2x2samples2count2cpu2nanoseconds2	main.main2main.go2runtime.main2proc.go2worker2a2bin2main.inl2bytes2size2runtime\..*2runtime\.main2made by mkbad.py2b2deadbeef2	main\.inl8@H•š—ìãŸçËP€¨Ö¹Z`€­âj